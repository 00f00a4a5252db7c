import { randomBytes } from "node:crypto";
import path from "node:path";

/**
 * A fresh, unguessable name for the temporary file next to `target`: hidden, naming the
 * target (its first 32 characters, so the name stays well under 255 bytes), with 96
 * random bits.
 */
export function tempLocation(target: string): string {
  const name = Array.from(path.basename(target)).slice(0, 32).join("");
  return path.join(path.dirname(target), `.${name}.${randomBytes(12).toString("hex")}.tmp`);
}
