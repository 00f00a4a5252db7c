import type { RatioBenchmark } from "../benchmark.js";
import { CoreutilsFixture, runGnu, runInProcess, textFile } from "./coreutils-fixture.js";

const fixture = new CoreutilsFixture();

export const coreutilsCat: RatioBenchmark = {
  kind: "ratio",
  name: "coreutils-cat",
  description: "cat of a 200 MB file: in-process (counting sink) vs GNU cat to /dev/null",
  grant: "fs_read of the fixture directory (an allow-all opener)",
  mode: "in-process, no sandbox, no spawn; baseline spawns GNU cat",
  target: { maxRatio: 2 },
  samples: 7,
  setup: () => fixture.create("text", textFile),
  teardown: () => fixture.remove(),
  subject: () => runInProcess("cat", ["text"], fixture.directory),
  baseline: () => runGnu("cat", ["text"], fixture.directory),
};
