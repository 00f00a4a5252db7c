import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { FrameLimiter } from "../src/frame-limiter.js";

async function run(cap: number, chunks: readonly string[]) {
  const oversized: number[] = [];
  const limiter = new FrameLimiter(cap, (bytes) => oversized.push(bytes));
  const source = new PassThrough();
  const frames: string[] = [];
  limiter.on("data", (chunk: Buffer) => frames.push(chunk.toString("utf8")));
  const done = new Promise((resolve) => limiter.on("end", resolve));
  source.pipe(limiter);
  for (const chunk of chunks) source.write(chunk);
  source.end();
  await done;
  return { frames, oversized };
}

describe("FrameLimiter", () => {
  it("passes frames at most the cap, one per chunk, across chunk boundaries", async () => {
    const { frames, oversized } = await run(8, ['{"a":', "1}\n12345678\n", "\n", "x\ny"]);
    expect(frames).toEqual(['{"a":1}\n', "12345678\n", "x\n"]);
    expect(oversized).toEqual([]);
  });

  it("drains an oversized frame without keeping it, reports its size and serves the next", async () => {
    const { frames, oversized } = await run(8, ["123456789", "0123", "\nok\n"]);
    expect(frames).toEqual(["ok\n"]);
    expect(oversized).toEqual([13]);
  });

  it("holds at most the cap in memory while draining a huge frame", async () => {
    const oversized: number[] = [];
    const limiter = new FrameLimiter(1024, (bytes) => oversized.push(bytes));
    const piece = Buffer.alloc(1 << 20, 0x78);
    const before = process.memoryUsage().arrayBuffers;
    for (let index = 0; index < 64; index++) limiter.write(piece);
    const growth = process.memoryUsage().arrayBuffers - before;
    limiter.end("\n");
    limiter.resume();
    await new Promise((resolve) => limiter.on("end", resolve));
    expect(oversized).toEqual([64 << 20]);
    // 64 MiB went through; far less than that was kept (the pieces are the test's own).
    expect(growth).toBeLessThan(32 << 20);
  });
});
