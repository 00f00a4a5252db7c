import type { Backend } from "./backend.js";
import { createLandlockBackend } from "./landlock-backend.js";
import { NONE_BACKEND } from "./none-backend.js";

/**
 * The backend this host offers: the launcher (Landlock) on Linux, where its probe then
 * decides whether it can run; `none` elsewhere (Seatbelt is not wired here yet).
 */
export function createHostBackend(platform: NodeJS.Platform = process.platform): Backend {
  return platform === "linux" ? createLandlockBackend() : NONE_BACKEND;
}
