import { checkOpened } from "../paths/check-opened.js";
import type { ToolPaths } from "../paths/tool-paths.js";
import { proceed, stop, type WriteStep } from "./write-refusal.js";

export interface Appended {
  readonly created: boolean;
}

/**
 * Appends in place (`O_APPEND`, one write), through core's mediated open of the judged
 * location, creating the file when missing. Not a temporary-file replace: appending keeps
 * the file (its identity, links and concurrent writers), and a crash can leave a partial
 * append.
 */
export async function appendInPlace(
  paths: ToolPaths,
  location: string,
  requested: string,
  bytes: Buffer,
): Promise<WriteStep<Appended>> {
  const opened = await paths.openWrite(location, requested, { append: true, create: true });
  if (!opened.ok) return stop(opened.denial);
  const { handle, path: judged } = opened.value;
  const created = !judged.exists;
  try {
    const checked = await checkOpened(handle, judged, {
      followSymlinks: paths.config.followSymlinks,
      expect: "file",
    });
    if (!checked.ok) return stop(checked.refusal, created);
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
      written += bytesWritten;
    }
    return proceed({ created });
  } finally {
    await handle.close();
  }
}
