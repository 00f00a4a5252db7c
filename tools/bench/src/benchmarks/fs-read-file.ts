import { readFile } from "node:fs/promises";
import { createFileConfig, createReadFileTool } from "@agent-bridle/fs-tools";
import type { RatioBenchmark } from "../benchmark.js";
import { FsFixture } from "./fs-fixture.js";

// read_file of a 1 MiB text file through Registry.dispatch (argument validation, the
// grant, the path judge, the mediated open, the bounded read, encoding detection and
// decoding, the result shape), against Node reading and decoding the same file.
const MIB = 1024 * 1024;
const fixture = new FsFixture();
let target = "";

/** Exactly 1 MiB of ASCII lines: the largest file the default maxFileSize reads whole. */
function text(): string {
  const line = "The quick brown fox jumps over the lazy dog, 0123456789.\n";
  return line.repeat(Math.ceil(MIB / line.length)).slice(0, MIB);
}

export const fsReadFile: RatioBenchmark = {
  kind: "ratio",
  name: "fs-read-file",
  description:
    "read_file of a 1 MiB text file through Registry.dispatch vs fs.promises.readFile(path, 'utf8')",
  grant: "fs_read only[fixture root], fs_write only[], exec and net all",
  mode: "in-process, no sandbox, no spawn; default FileConfig and core's default path policy",
  target: { maxRatio: 1.5 },
  setup: async () => {
    fixture.create(createReadFileTool(createFileConfig()));
    target = fixture.file("text.txt", text());
    const value = (await fixture.dispatch("read_file", { path: target })) as {
      result: { size: number };
    };
    if (value.result.size !== MIB) throw new Error("fixture is not 1 MiB");
  },
  teardown: () => fixture.remove(),
  subject: async () => {
    await fixture.dispatch("read_file", { path: target });
  },
  baseline: async () => {
    await readFile(target, "utf8");
  },
};
