import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { createFileConfig, createListDirectoryTool } from "@agent-bridle/fs-tools";
import type { RatioBenchmark } from "../benchmark.js";
import { FsFixture } from "./fs-fixture.js";

// list_directory of 10,000 entries through Registry.dispatch (the judge, the mediated open
// of the directory, the streamed listing, an lstat per entry, the blocked-entry filter,
// sorting and the result shape), against readdir and an lstat of each entry.
const ENTRIES = 10_000;
const BATCH = 512;
const fixture = new FsFixture();
let directory = "";

export const fsListDirectory: RatioBenchmark = {
  kind: "ratio",
  name: "fs-list-directory",
  description:
    "list_directory of 10,000 entries through Registry.dispatch vs readdir + lstat of each",
  grant: "fs_read only[fixture root], fs_write only[], exec and net all",
  mode: "in-process, no sandbox, no spawn; default FileConfig (limit 10,000) and core's default path policy",
  target: { maxRatio: 2 },
  samples: 20,
  setup: async () => {
    fixture.create(createListDirectoryTool(createFileConfig()));
    directory = fixture.directory("many", ENTRIES);
    const value = (await fixture.dispatch("list_directory", {
      path: directory,
      limit: ENTRIES,
    })) as {
      result: { entries: unknown[]; truncated: boolean };
    };
    if (value.result.entries.length !== ENTRIES || value.result.truncated) {
      throw new Error("list_directory did not return every entry");
    }
  },
  teardown: () => fixture.remove(),
  subject: async () => {
    await fixture.dispatch("list_directory", { path: directory, limit: ENTRIES });
  },
  // The same concurrency as the tool (lstat in batches of 512), so the ratio measures
  // what the tool adds, not a difference in how many lstat calls are in flight.
  baseline: async () => {
    const names = await readdir(directory);
    for (let start = 0; start < names.length; start += BATCH) {
      await Promise.all(
        names.slice(start, start + BATCH).map((name) => lstat(join(directory, name))),
      );
    }
  },
};
