import { fileURLToPath } from "node:url";

// Both src/carried/ and dist/carried/ sit two levels below the package root; the entry
// is always the built file (it runs under plain Node).
const ENTRY = new URL("../../dist/carried/carried-entry.js", import.meta.url);

/** The absolute path of the bundled carried entry (`node <path> --invoke-bundled …`). */
export function carriedEntryPath(): string {
  return fileURLToPath(ENTRY);
}
