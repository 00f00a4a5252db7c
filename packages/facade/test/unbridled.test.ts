// setUnbridled() is process-wide and cannot be undone: this file runs in its own module
// graph (vitest isolates test files), so it does not leak into the others.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caveats, isUnbridled, registry, setUnbridled, top } from "../src/index.js";

let dir = "";
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "bridle-unbridled-")));
  setUnbridled();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an unbridled process (reference case 98)", () => {
  it("runs an unrestricted grant with no sandbox and says so", async () => {
    expect(isUnbridled()).toBe(true);
    const built = registry({ shell: "host", baseDir: dir });
    const envelope = (await built.dispatchOneshot("shell", { cmd: "echo hi" }, top())) as Record<
      string,
      unknown
    >;
    expect(envelope).toMatchObject({
      sandbox_kind: "none",
      stdout: "hi\n",
      disclosure: { unbridled: true, engine: "sandbox-host" },
    });
    await built.close();
  });

  it("refuses the host shell in-band under a restricted grant: it has no check of its own", async () => {
    writeFileSync(join(dir, "keep.txt"), "kept");
    const built = registry({ shell: "host", baseDir: dir });
    const grant = built.mintGrant(
      caveats({
        fs_read: "all",
        fs_write: "all",
        exec: { only: ["echo"] },
        net: "all",
        max_calls: { at_most: 1 },
      }),
    );
    const refused = (await built.dispatch("shell", { cmd: "rm -f keep.txt" }, grant)) as {
      denials?: { code: string; target: string }[];
      disclosure?: { unbridled?: boolean };
    };
    expect(refused.denials?.[0]).toMatchObject({ code: "ENGINE_UNAVAILABLE" });
    expect(refused.denials?.[0]?.target).toContain("exec");
    expect(refused.disclosure?.unbridled).toBe(true);
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("kept");
    // Not charged: the one-call budget is still there for the fs tools.
    const read = (await built.dispatch("read_file", { path: "keep.txt" }, grant)) as {
      result?: { content: string };
    };
    expect(read.result?.content).toBe("kept");
    await built.close();
  });

  it("keeps the bash engine's exec check (case 98): echo runs, rm is denied, both disclose unbridled", async () => {
    writeFileSync(join(dir, "keep.txt"), "kept");
    const built = registry({ shell: "brush", baseDir: dir });
    const grant = caveats({
      fs_read: "all",
      fs_write: "all",
      exec: { only: ["echo"] },
      net: "all",
    });
    const ran = (await built.dispatchOneshot(
      "shell",
      { cmd: "echo hi; rm -f keep.txt; echo $?" },
      grant,
    )) as Record<string, unknown>;
    expect(ran).toMatchObject({
      sandbox_kind: "none",
      stdout: "hi\n126\n",
      disclosure: { unbridled: true, engine: "brush" },
      enforcement: { exec: "interceptor" },
    });
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("kept");
    await built.close();
  });

  it("still gates the fs tools by the grant", async () => {
    const built = registry({ baseDir: dir });
    const denied = (await built.dispatchOneshot(
      "read_file",
      { path: "/etc/hostname" },
      caveats({ fs_read: { only: [dir] }, fs_write: "all", exec: "all", net: "all" }),
    )) as { denied?: boolean };
    expect(denied.denied).toBe(true);
    await built.close();
  });
});
