import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { locateLauncherOnce } from "@agent-bridle/sandbox";
import type { CarriedRuntime } from "./execution-context.js";

/** The directory holding the `package.json` above a resolved module file. */
function packageRoot(file: string): string {
  let directory = dirname(file);
  while (!existsSync(join(directory, "package.json")) && dirname(directory) !== directory) {
    directory = dirname(directory);
  }
  return directory;
}

/**
 * What the carried entry needs besides the grant, under a kernel backend: `node` and the
 * launcher (for its peer check) as executables, and the packages the entry loads as
 * readable paths. Fixed by this installation, never by a request; looked up once.
 */
export async function findCarriedRuntime(): Promise<CarriedRuntime> {
  const require = createRequire(import.meta.url);
  const readPaths: string[] = [];
  for (const name of [
    "@agent-bridle/coreutils",
    "@agent-bridle/core",
    "@agent-bridle/sandbox",
    "zod",
  ]) {
    try {
      readPaths.push(packageRoot(require.resolve(name)));
    } catch {
      // Not resolvable from here: the entry will fail to start, visibly (exit 1).
    }
  }
  const launcher = await locateLauncherOnce().catch(() => undefined);
  return {
    executables: [process.execPath, ...(launcher ? [launcher.path] : [])],
    readPaths,
  };
}
