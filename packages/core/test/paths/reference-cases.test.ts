import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { judgePath } from "../../src/paths/judge-path.js";
import { openPathRead, openPathWrite } from "../../src/paths/mediated-open.js";
import { buildTree, createTempRoot, NO_BLOCKS, removeTempRoot } from "./temp-root.js";

// reference-behaviour.md §13, cases 10-12 (the Rust original's own tests).
let root: string;

beforeEach(async () => {
  root = await createTempRoot();
});
afterEach(async () => removeTempRoot(root));

async function writeCode(target: string, only: string[]) {
  const decision = await judgePath({
    path: target,
    op: "write",
    scope: { only },
    policy: NO_BLOCKS,
  });
  return decision.ok ? "ALLOWED" : decision.denial.code;
}

describe.runIf(process.platform !== "win32")("reference cases", () => {
  it("10: fs_write only[<tmp>] allows a new file directly under it, denies /etc/shadow", async () => {
    expect(await writeCode(path.join(root, "new.txt"), [root])).toBe("ALLOWED");
    expect(await writeCode("/etc/shadow", [root])).toBe("FS_OUTSIDE_ALLOWED");
  });

  it("11: '..' out of allowed and a link out of allowed are denied; allowed/ok.txt is ok", async () => {
    await buildTree(root, {
      "allowed/ok.txt": "OK",
      "secret/keep.txt": "CANARY",
      "allowed/escape": { link: path.join(root, "secret") },
    });
    const only = [path.join(root, "allowed")];
    expect(await writeCode(`${root}/allowed/../secret/loot.txt`, only)).toBe("FS_OUTSIDE_ALLOWED");
    expect(await writeCode(`${root}/allowed/escape/loot.txt`, only)).toBe("FS_SYMLINK_ESCAPE");
    expect(await writeCode(`${root}/allowed/ok.txt`, only)).toBe("ALLOWED");
    expect(existsSync(path.join(root, "secret/loot.txt"))).toBe(false);
  });

  it("12: mediated open scoped to <root>: create, append, read back 'onetwo'", async () => {
    const scope = { only: [root] };
    const target = path.join(root, "log.txt");
    for (const [text, append] of [
      ["one", false],
      ["two", true],
    ] as const) {
      const opened = await openPathWrite({ path: target, scope, policy: NO_BLOCKS, append });
      expect(opened.ok).toBe(true);
      if (!opened.ok) return;
      await opened.value.handle.writeFile(text);
      await opened.value.handle.close();
    }
    const reading = await openPathRead({ path: target, scope, policy: NO_BLOCKS });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(await reading.value.handle.readFile("utf8")).toBe("onetwo");
    await reading.value.handle.close();
  });

  it("12: write-open of /etc/<x> and read-open of /etc/hostname are refused", async () => {
    const scope = { only: [root] };
    const planted = `/etc/bridle-${randomUUID()}`;
    const write = await openPathWrite({ path: planted, scope, policy: NO_BLOCKS });
    expect(write).toMatchObject({
      ok: false,
      denial: { code: "FS_OUTSIDE_ALLOWED", target: planted },
    });
    expect(existsSync(planted)).toBe(false);
    const read = await openPathRead({ path: "/etc/hostname", scope, policy: NO_BLOCKS });
    expect(read).toMatchObject({ ok: false, denial: { code: "FS_OUTSIDE_ALLOWED" } });
  });

  it("12: with 'all' scopes a plain open works anywhere", async () => {
    const elsewhere = await createTempRoot();
    try {
      const target = path.join(elsewhere, "any.txt");
      const write = await openPathWrite({ path: target, scope: "all", policy: NO_BLOCKS });
      expect(write.ok && write.value.path.root).toBeUndefined();
      if (!write.ok) return;
      await write.value.handle.writeFile("anywhere");
      await write.value.handle.close();
      expect(await readFile(target, "utf8")).toBe("anywhere");
    } finally {
      await removeTempRoot(elsewhere);
    }
  });
});
