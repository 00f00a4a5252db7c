import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BridleError, Registry } from "@agent-bridle/core";
import { sizeTool, whichTool } from "./demo-tools.js";

// The README's main job until the `bridle` command exists: a registry on a demo grant,
// dispatching real calls and printing each outcome as the model would see it.
const workspace = mkdtempSync(join(tmpdir(), "bridle-demo-"));
writeFileSync(join(workspace, "notes.txt"), "hello from the demo workspace\n");

const grant = {
  fs_read: { only: [workspace] },
  fs_write: { only: [] },
  exec: { only: ["git", "ls"] },
  net: { only: [] },
  max_calls: { at_most: 3 },
  valid_for_generation: "all",
};

const registry = Registry.builder().tool(whichTool).tool(sizeTool).build();
const handle = registry.mintGrant(grant);
console.log(`grant: ${JSON.stringify(handle.caveats)}\n`);

const calls: [string, unknown][] = [
  ["which", { program: "git" }],
  ["which", { program: "./git" }],
  ["which", { program: "/bin/rm" }],
  ["size_of", { path: join(workspace, "notes.txt") }],
  ["size_of", { path: "/etc/passwd" }],
  ["size_of", { path: join(workspace, "..", "elsewhere") }],
  ["which", { program: "ls" }],
  ["which", { program: "ls" }],
];

for (const [tool, args] of calls) {
  try {
    const result = await registry.dispatch(tool, args, handle);
    console.log(`${tool} ${JSON.stringify(args)}\n  → ${JSON.stringify(result)}`);
  } catch (error) {
    if (!BridleError.isInstance(error)) throw error;
    console.log(`${tool} ${JSON.stringify(args)}\n  → thrown ${error.code}: ${error.message}`);
  }
  console.log(`  calls left: ${handle.remainingCalls}`);
}
await registry.close();
