import { spawn } from "node:child_process";
import { homedir } from "node:os";
import { defaultPathPolicy, Registry, top } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { createShellTool } from "@agent-bridle/shell-safe";
import type { RatioBenchmark } from "../benchmark.js";
import { CoreutilsFixture } from "./coreutils-fixture.js";

// `cat <200 MB> | wc -c` through the safe engine (two stages joined by an OS pipe; the
// bytes never pass through JavaScript) against `bash -c` of the same pipeline.
const fixture = new CoreutilsFixture();
const SIZE = 200 * 1_000_000;
let subject: () => Promise<void> = async () => {
  throw new Error("shell-safe-pipeline: setup did not run");
};

export const shellSafePipeline: RatioBenchmark = {
  kind: "ratio",
  name: "shell-safe-pipeline",
  description: "safe engine `cat <200 MB> | wc -c` vs `bash -c` of the same pipeline",
  grant: "top()",
  mode: "shell-safe engine, `none` backend, two stages on an OS pipe",
  target: { maxRatio: 1.11 },
  samples: 10,
  setup: () => {
    fixture.create("big.txt", () => {
      const line = Buffer.from(`${"x".repeat(99)}\n`);
      const block = Buffer.concat(Array.from({ length: 10_000 }, () => line));
      return Array.from({ length: SIZE / block.length }, () => block);
    });
    const shell = createShellTool({
      home: fixture.directory,
      tmpdir: fixture.directory,
      baseDir: fixture.directory,
      backend: NONE_BACKEND,
    });
    const registry = Registry.builder()
      .tool(shell)
      .pathPolicy(defaultPathPolicy({ platform: "linux", home: homedir() }))
      .build();
    const grant = registry.mintGrant(top());
    subject = async () => {
      const envelope = (await registry.dispatch(
        "shell",
        { cmd: "cat big.txt | wc -c" },
        grant,
      )) as {
        stdout?: string;
      };
      if (Number(envelope.stdout) !== SIZE) throw new Error("shell-safe-pipeline: wrong count");
    };
  },
  teardown: () => fixture.remove(),
  subject: () => subject(),
  baseline: () =>
    new Promise((resolve, reject) => {
      // The same file and pipeline from the same directory; the count is checked like the
      // subject's, so both sides provably moved all 200 MB through the pipe.
      const child = spawn("/bin/bash", ["--norc", "--noprofile", "-c", "cat big.txt | wc -c"], {
        cwd: fixture.directory,
        stdio: ["ignore", "pipe", "pipe"],
        env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
      });
      const out: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.resume();
      child.once("error", reject);
      child.once("close", () => {
        const count = Number(Buffer.concat(out).toString("utf8"));
        if (count === SIZE) resolve();
        else reject(new Error(`shell-safe-pipeline: baseline counted ${count}`));
      });
    }),
};
