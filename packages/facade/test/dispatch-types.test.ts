import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { caveats, only, registry, type ToolEnvelope, type ToolResults } from "../src/index.js";

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDir(): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "bridle-dispatch-types-")));
  made.push(directory);
  return directory;
}

// Issue 17 point 5: the results of the built-in tools are typed by name, without a cast
// (the `expectTypeOf` lines and the field reads are checked by `tsc -p tsconfig.tests.json`).
describe("the built-in tools' results are typed by name", () => {
  it("read_file's result and the shell's envelope are read without a cast", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "typed\n");
    const tools = registry({ shell: "safe", baseDir: dir });
    try {
      const grant = tools.mintGrant(
        caveats({
          fs_read: only([dir]),
          fs_write: only([]),
          exec: only(["cat"]),
          net: only([]),
          max_calls: { at_most: 2 },
        }),
      );
      const read = await tools.dispatch("read_file", { path: "a.txt" }, grant);
      expectTypeOf(read).toEqualTypeOf<ToolResults["read_file"]>();
      expect(read.result?.content).toBe("typed\n");
      expect(read.result?.truncated).toBe(false);

      const envelope = await tools.dispatch("shell", { cmd: "cat a.txt" }, grant);
      expectTypeOf(envelope).toEqualTypeOf<ToolEnvelope>();
      if (!("exit_code" in envelope)) throw new Error(`refused: ${JSON.stringify(envelope)}`);
      expect(envelope.exit_code).toBe(0);
      expect(envelope.stdout).toBe("typed\n");
    } finally {
      await tools.close();
    }
  });

  it("every fs tool name has its entry", () => {
    expectTypeOf<ToolResults["list_directory"]["result"]>().toExtend<
      { readonly entries: readonly unknown[] } | undefined
    >();
    expectTypeOf<ToolResults["file_info"]["result"]>().toExtend<
      { readonly mode: number } | undefined
    >();
    expectTypeOf<ToolResults["write_file"]["result"]>().toExtend<
      { readonly bytes_written: number } | undefined
    >();
    expectTypeOf<ToolResults["edit_file"]>().not.toBeUnknown();
    expectTypeOf<ToolResults["search_files"]["result"]>().toExtend<
      { readonly matches: readonly unknown[] } | undefined
    >();
  });
});
