import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { Registry, top } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { createBrushShellTool } from "@agent-bridle/shell-brush";

/** A registry with the bash engine under a top() grant (no backend engages). */
export function brushRegistry(warm: boolean) {
  const tool = createBrushShellTool({
    home: tmpdir(),
    tmpdir: tmpdir(),
    baseDir: tmpdir(),
    backend: NONE_BACKEND,
    warm,
  });
  const registry = Registry.builder().tool(tool).build();
  return { tool, registry, grant: registry.mintGrant(top()) };
}

/** Spawns `argv` directly and waits for it to close, output drained. */
export function spawnPlain(argv: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", () => resolve());
  });
}
