import type { RatioBenchmark } from "../benchmark.js";
import { CoreutilsFixture, runGnu, runInProcess, textFile } from "./coreutils-fixture.js";

const fixture = new CoreutilsFixture();

export const coreutilsWcL: RatioBenchmark = {
  kind: "ratio",
  name: "coreutils-wc-l",
  description: "wc -l of a 200 MB file: in-process (counting sink) vs GNU wc to /dev/null",
  grant: "fs_read of the fixture directory (an allow-all opener)",
  mode: "in-process, no sandbox, no spawn; baseline spawns GNU wc",
  target: { maxRatio: 3 },
  samples: 7,
  setup: () => fixture.create("text", textFile),
  teardown: () => fixture.remove(),
  subject: () => runInProcess("wc", ["-l", "text"], fixture.directory),
  baseline: () => runGnu("wc", ["-l", "text"], fixture.directory),
};
