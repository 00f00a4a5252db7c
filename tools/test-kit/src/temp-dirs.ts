import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach } from "vitest";

/**
 * Temp directories under the system temp directory (real paths, so they compare equal to
 * judged locations), removed after each test (`"each"`, default) or after the file
 * (`"all"`). Returns a maker: call it for a fresh directory.
 */
export function useTempDirs(
  prefix: string,
  removeAfter: "each" | "all" = "each",
): (prefixOverride?: string) => string {
  const made: string[] = [];
  (removeAfter === "each" ? afterEach : afterAll)(() => {
    for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  return (prefixOverride = prefix) => {
    const directory = realpathSync(mkdtempSync(join(tmpdir(), prefixOverride)));
    made.push(directory);
    return directory;
  };
}
