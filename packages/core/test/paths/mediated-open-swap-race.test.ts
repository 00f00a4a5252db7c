import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openPathRead } from "../../src/paths/mediated-open.js";
import { buildTree, createTempRoot, NO_BLOCKS, removeTempRoot } from "./temp-root.js";

// Catalogue A20 at the core level: a directory on the path alternates with a link to an
// outside directory, in another process, while the mediated open runs. A swap between
// the judge's own name lookups once let the outside file through (the judged identity
// came from the swapped name); the descriptor's kernel location now settles it.
const SWAPPER = `
  const fs = require("node:fs");
  const [name, target] = process.argv.slice(1);
  const real = name + ".real", link = name + ".link";
  fs.symlinkSync(target, link);
  const stop = Date.now() + 60000;
  while (Date.now() < stop) {
    try { fs.renameSync(name, real); fs.renameSync(link, name); } catch {}
    try { fs.renameSync(name, link); fs.renameSync(real, name); } catch {}
  }`;

let root: string;
beforeEach(async () => {
  root = await createTempRoot();
  await buildTree(root, { "allowed/sub/f.txt": "DECOY-IN", "outside/f.txt": "CANARY-OUT" });
});
afterEach(async () => removeTempRoot(root));

describe.runIf(process.platform === "linux")(
  "mediated open under a live directory swap (A20, Linux)",
  () => {
    it("never returns the outside file's content in 3,000 opens", async () => {
      const allowed = path.join(root, "allowed");
      const swapper = spawn(
        process.execPath,
        ["-e", SWAPPER, path.join(allowed, "sub"), path.join(root, "outside")],
        {
          stdio: "ignore",
        },
      );
      const exited = new Promise((resolve) => swapper.once("exit", resolve));
      const seen = new Map<string, number>();
      try {
        for (let i = 0; i < 3000; i++) {
          const opened = await openPathRead({
            path: path.join(allowed, "sub", "f.txt"),
            scope: { only: [allowed] },
            policy: NO_BLOCKS,
          });
          const key = opened.ok ? await opened.value.handle.readFile("utf8") : opened.denial.code;
          if (opened.ok) await opened.value.handle.close();
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      } finally {
        swapper.kill("SIGKILL");
        await exited;
      }
      expect(seen.get("CANARY-OUT") ?? 0).toBe(0);
      expect(seen.get("DECOY-IN") ?? 0).toBeGreaterThan(0);
    }, 60_000);
  },
);
