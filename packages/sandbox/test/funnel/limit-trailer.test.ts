import { PassThrough } from "node:stream";
import { DenialSchema } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { captureCapped } from "../../src/funnel/capped-capture.js";
import { limitExceededDenial, withLimitDenials } from "../../src/funnel/limit-denial.js";
import { LimitTrailerFilter } from "../../src/funnel/limit-trailer.js";
import { limitsOfRun } from "../../src/funnel/limits-of-run.js";

const MEMORY = "\nbridle-launch: limit exceeded: memory\n";
const PROCESSES = "\nbridle-launch: limit exceeded: processes\n";

/** Feeds `text` in chunks cut at `cuts`; returns what was passed on and the limit. */
function filter(text: string, cuts: readonly number[] = []) {
  const trailer = new LimitTrailerFilter();
  const bytes = Buffer.from(text, "latin1");
  const passed: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    passed.push(trailer.push(bytes.subarray(from, cut)));
    from = cut;
  }
  passed.push(trailer.end());
  return { text: Buffer.concat(passed).toString("latin1"), limit: trailer.limit };
}

describe("the launcher's limit trailer", () => {
  it("is taken off the end of a stage's stderr and names the limit", () => {
    expect(filter(`oops\n${MEMORY}`)).toEqual({ text: "oops\n", limit: "memory" });
    expect(filter(PROCESSES)).toEqual({ text: "", limit: "processes" });
    expect(filter(`no newline${MEMORY}`)).toEqual({ text: "no newline", limit: "memory" });
  });

  it("is found however the stream is cut into chunks", () => {
    const text = `line one\nline two${PROCESSES}`;
    for (let cut = 0; cut <= text.length; cut += 1) {
      expect(filter(text, [cut])).toEqual({ text: "line one\nline two", limit: "processes" });
    }
    expect(filter(text, [3, 9, 12, 20, 30, 40])).toEqual({
      text: "line one\nline two",
      limit: "processes",
    });
  });

  it("is program output when anything follows it, or it names a limit not known here", () => {
    for (const text of [
      `${MEMORY}more`,
      `${MEMORY}\n`,
      "\nbridle-launch: limit exceeded: memory",
      "\nbridle-launch: limit exceeded: open_files\n",
      "\nbridle-launch: limit exceeded: \n",
      "bridle-launch: limit exceeded: memory\n",
      "\nbridle-launch: limit exceeded: memoryy\n",
    ]) {
      expect(filter(text, [5])).toEqual({ text, limit: undefined });
    }
  });

  it("names every limit of a comma-separated trailer, in order, and file_size from the tracer", () => {
    for (const [names, limit] of [
      ["file_size", "file_size"],
      ["memory,file_size", "memory"],
      ["processes,file_size", "processes"],
      ["memory,processes,file_size", "memory"],
    ] as const) {
      const text = `out\nbridle-launch: limit exceeded: ${names}\n`;
      for (let cut = 0; cut <= text.length; cut += 7) {
        const trailer = new LimitTrailerFilter();
        const passed = [
          trailer.push(Buffer.from(text.slice(0, cut))),
          trailer.push(Buffer.from(text.slice(cut))),
          trailer.end(),
        ];
        expect(Buffer.concat(passed).toString()).toBe("out");
        expect(trailer.limit).toBe(limit);
        expect(trailer.limits).toEqual(names.split(","));
      }
    }
    // Out of order, repeated, or the engine's own written_bytes: program output.
    for (const names of ["file_size,memory", "memory,memory", "written_bytes", "memory,"]) {
      const text = `\nbridle-launch: limit exceeded: ${names}\n`;
      expect(filter(text)).toEqual({ text, limit: undefined });
    }
  });

  it("holds back only a tail that could still become the trailer", () => {
    const trailer = new LimitTrailerFilter();
    expect(trailer.push(Buffer.from("abc\n")).toString()).toBe("abc");
    expect(trailer.push(Buffer.from("bridle-")).toString()).toBe("");
    expect(trailer.push(Buffer.from("x")).toString()).toBe("\nbridle-x");
    expect(trailer.push(Buffer.from("plain")).toString()).toBe("plain");
    expect(trailer.end().toString()).toBe("");
    expect(trailer.limit).toBeUndefined();
  });

  it("is neither kept nor fed live by a capture, and does not count against its cap", async () => {
    const stream = new PassThrough();
    const fed: string[] = [];
    const trailer = new LimitTrailerFilter();
    const capture = captureCapped(stream, 6, (chunk) => fed.push(chunk.toString()), trailer);
    stream.write("abcdef");
    stream.end(MEMORY);
    await capture.closed;
    expect(capture.result()).toEqual({ bytes: Buffer.from("abcdef"), truncated: false });
    expect(fed.join("")).toBe("abcdef");
    expect(trailer.limit).toBe("memory");
  });

  it("releases what it held when the capture is taken from a stream that never ended", () => {
    const stream = new PassThrough();
    const capture = captureCapped(stream, 100, undefined, new LimitTrailerFilter());
    stream.write("x\nbridle-launch: lim");
    expect(capture.result().bytes.toString()).toBe("x\nbridle-launch: lim");
    stream.destroy();
  });
});

describe("limits of a run", () => {
  const exit = (code: number | null, signal: NodeJS.Signals | null = null) => ({ code, signal });

  it("reads the trailers and a SIGXFSZ death (status 153 only from the launcher)", () => {
    const memory = new LimitTrailerFilter();
    memory.push(Buffer.from(MEMORY));
    memory.end();
    expect(limitsOfRun([memory], [exit(0), exit(153)], true)).toEqual(["memory", "file_size"]);
    expect(limitsOfRun([], [exit(null, "SIGXFSZ")], false)).toEqual(["file_size"]);
    expect(limitsOfRun([], [exit(153)], false)).toEqual([]);
    expect(limitsOfRun([new LimitTrailerFilter()], [exit(137)], true)).toEqual([]);
    const both = new LimitTrailerFilter();
    both.push(Buffer.from("\nbridle-launch: limit exceeded: processes,file_size\n"));
    both.end();
    expect(limitsOfRun([both], [exit(0)], true)).toEqual(["processes", "file_size"]);
  });
});

describe("LIMIT_EXCEEDED denials", () => {
  it("name the limit and the bound the backend applied", () => {
    const denial = limitExceededDenial("memory", { treeMemoryBytes: 64 * 1024 ** 2 });
    expect(DenialSchema.parse(denial)).toEqual({
      kind: "exec",
      target: "memory",
      code: "LIMIT_EXCEEDED",
      reason:
        "denied: limit exceeded: memory: the call ran out of its memory (64 MiB for all of its processes), so the kernel killed one of its processes; work on the data in smaller pieces",
    });
    expect(limitExceededDenial("file_size", { fileSizeBytes: 1024 ** 3 }).reason).toContain(
      "(1 GiB)",
    );
    expect(limitExceededDenial("file_size", { fileSizeBytes: 1000 }).reason).toContain(
      "(1000 bytes)",
    );
    expect(limitExceededDenial("processes", { maxProcesses: 16 }).reason).toContain(
      "(16 processes and threads at once)",
    );
    expect(limitExceededDenial("processes", undefined).reason).toBe(
      "denied: limit exceeded: processes: the call reached its process limit, so starting another one failed; start fewer at once",
    );
  });

  it("come after a run's other denials, once per limit, worded from the applied limits", () => {
    const other = { kind: "open", target: "/x", reason: "denied: no", code: "FS_BLOCKED" } as const;
    const fromWorker = limitExceededDenial("file_size", undefined);
    const denials = withLimitDenials([fromWorker, other], ["memory", "file_size"], {
      fileSizeBytes: 1 << 20,
    });
    expect(denials.map((denial) => [denial.code, denial.target])).toEqual([
      ["FS_BLOCKED", "/x"],
      ["LIMIT_EXCEEDED", "memory"],
      ["LIMIT_EXCEEDED", "file_size"],
    ]);
    expect(denials[2]?.reason).toContain("(1 MiB)");
    expect(withLimitDenials([other], [], undefined)).toEqual([other]);
  });
});
