import { createDenial, type Denial, type ToolContext } from "@agent-bridle/core";

/**
 * The working directory of a spawn: the request `cwd`, else the engine's `baseDir`
 * (refused when neither exists), judged against `fs_read` like any path, and it must be
 * an existing directory. Shared by every engine that spawns.
 */
export async function checkWorkingDirectory(
  cx: ToolContext,
  requested: string | undefined,
  baseDir: string | undefined,
): Promise<{ ok: true; path: string } | { ok: false; denial: Denial }> {
  const path = requested ?? baseDir;
  if (path === undefined) {
    const reason = "no cwd was sent and the tool has no base directory; send an absolute cwd";
    return { ok: false, denial: createDenial("open", "(cwd)", "FS_NO_BASE_DIR", reason) };
  }
  const judged = await cx.checkPathRead(path, { baseDir });
  if (!judged.ok) return judged;
  // The judge's own lookup of the real location says whether it is a directory.
  if (judged.value.directory) return { ok: true, path: judged.value.real };
  return {
    ok: false,
    denial: createDenial(
      "open",
      requested ?? "(cwd)",
      "FS_NOT_FOUND",
      "the working directory does not exist or is not a directory; send an existing absolute directory as cwd",
    ),
  };
}
