import type { Backend } from "./backend.js";
import { createLandlockBackend } from "./landlock-backend.js";
import { NONE_BACKEND } from "./none-backend.js";
import { createSeatbeltBackend } from "./seatbelt-backend.js";

/**
 * The backend this host offers: the launcher (Landlock) on Linux, Seatbelt on macOS
 * (experimental), `none` elsewhere (Windows). Each backend's probe then decides whether
 * it can run; an unavailable one engages nothing and the floor refuses restricted axes.
 */
export function createHostBackend(platform: NodeJS.Platform = process.platform): Backend {
  if (platform === "linux") return createLandlockBackend();
  if (platform === "darwin") return createSeatbeltBackend(platform);
  return NONE_BACKEND;
}
