import type { RatioBenchmark } from "../benchmark.js";
import { CoreutilsFixture, runGnu, runInProcess, sortInput } from "./coreutils-fixture.js";

const fixture = new CoreutilsFixture();

export const coreutilsSort: RatioBenchmark = {
  kind: "ratio",
  name: "coreutils-sort",
  description: "sort of 1 M lines: in-process (counting sink) vs GNU sort to /dev/null",
  grant: "fs_read of the fixture directory (an allow-all opener)",
  mode: "in-process, no sandbox, no spawn, no spill (default 64 MiB buffer); baseline spawns GNU sort",
  target: { maxRatio: 3 },
  samples: 7,
  setup: () => fixture.create("lines", sortInput),
  teardown: () => fixture.remove(),
  subject: () => runInProcess("sort", ["lines"], fixture.directory),
  baseline: () => runGnu("sort", ["lines"], fixture.directory),
};
