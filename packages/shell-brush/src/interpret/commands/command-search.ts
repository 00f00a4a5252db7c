/**
 * Finding a command's program: a name with a slash is that path; otherwise each `PATH`
 * directory in turn. Every probe is the gate's `statProgram`. PATH candidates are probed
 * quietly (a refused candidate is just not there, and is not recorded as a denial: a
 * lookup probes directories the script never named); a path the script spelled is
 * probed through the recording gate.
 */
import type { CommandLocation, ExecContext } from "../exec-context.js";
import { resolvePath } from "../io/paths.js";

export type { CommandLocation } from "../exec-context.js";

const EXECUTABLE = 0o111n;

/** Where `name` runs from, or bash's error for it (126 or 127). */
export async function resolveCommand(
  interpreter: ExecContext,
  name: string,
): Promise<CommandLocation> {
  if (name.includes("/")) {
    const path = resolvePath(interpreter.state.cwd, name);
    const stats = await interpreter.access.statProgram(path);
    if (!stats.ok) {
      if ("errno" in stats && stats.errno === "ENOENT")
        return { status: 127, message: `${name}: No such file or directory` };
      return { status: 126, message: `${name}: Permission denied` };
    }
    if (stats.value.isDirectory()) return { status: 126, message: `${name}: Is a directory` };
    if ((stats.value.mode & EXECUTABLE) === 0n)
      return { status: 126, message: `${name}: Permission denied` };
    return { path };
  }
  const hashed = interpreter.state.hashed.get(name);
  if (hashed !== undefined) return { path: hashed };
  const searchPath = interpreter.state.get("PATH") ?? "";
  for (const directory of searchPath.split(":")) {
    const path = resolvePath(
      interpreter.state.cwd,
      `${directory === "" ? "." : directory}/${name}`,
    );
    const stats = await interpreter.rawAccess.statProgram(path);
    if (stats.ok && stats.value.isFile() && (stats.value.mode & EXECUTABLE) !== 0n) {
      if (interpreter.state.options.hashall) interpreter.state.hashed.set(name, path);
      return { path };
    }
  }
  return { status: 127, message: `${name}: command not found` };
}

/** The executable files named `name` on `PATH`, in order (the first only unless `all`). */
export async function programsOnPath(
  interpreter: ExecContext,
  name: string,
  all: boolean,
): Promise<string[]> {
  if (name.includes("/")) {
    const found = await resolveCommand(interpreter, name);
    return "path" in found ? [found.path] : [];
  }
  const paths: string[] = [];
  for (const directory of (interpreter.state.get("PATH") ?? "").split(":")) {
    const path = resolvePath(
      interpreter.state.cwd,
      `${directory === "" ? "." : directory}/${name}`,
    );
    const stats = await interpreter.rawAccess.statProgram(path);
    if (stats.ok && stats.value.isFile() && (stats.value.mode & EXECUTABLE) !== 0n) {
      if (!paths.includes(path)) paths.push(path);
      if (!all) break;
    }
  }
  return paths;
}
