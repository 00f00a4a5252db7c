import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { passThroughAccess, useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { fileSizeLimitOf, watchFileSizes } from "../../src/worker/file-size-watch.js";

const tempDir = useTempDirs("brush-fsize-", "each");

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max file size             1048576              2097152              bytes
Max data size             unlimited            unlimited            bytes
`;

describe("the worker's file-size watch", () => {
  it("reads the soft RLIMIT_FSIZE; unlimited or unreadable is none", () => {
    expect(fileSizeLimitOf(() => LIMITS)).toBe(1048576);
    expect(fileSizeLimitOf(() => LIMITS.replace("1048576 ", "unlimited "))).toBeUndefined();
    expect(
      fileSizeLimitOf(() => {
        throw new Error("ENOENT");
      }),
    ).toBeUndefined();
  });

  it("tells when a file opened for writing reached the limit, checked at close or at the end", async () => {
    const dir = tempDir();
    let reached = 0;
    const watch = watchFileSizes(passThroughAccess, 8, () => {
      reached += 1;
    });
    const write = async (name: string, bytes: number, close: boolean) => {
      const opened = await watch.access.openRedirect(join(dir, name), {});
      if (!opened.ok) throw new Error("open failed");
      await opened.value.write(Buffer.alloc(bytes));
      if (close) await opened.value.close();
    };
    await write("small", 7, true);
    expect(reached).toBe(0);
    await write("full", 8, true);
    expect(reached).toBe(1);
    await write("left-open", 9, false);
    expect(reached).toBe(1);
    watch.finish();
    expect(reached).toBe(2);
    // Reads are not watched.
    writeFileSync(join(dir, "big"), Buffer.alloc(64));
    const read = await watch.access.open(join(dir, "big"));
    if (read.ok) await read.value.close();
    expect(reached).toBe(2);
  });
});
