import { type ChildProcess, spawn } from "node:child_process";

// Runs in a separate process so the swaps really race the tool's system calls. Each
// program loops until killed, and exits on its own after a minute at most.
const PROGRAMS = {
  /** `name` alternates, by rename, between a regular file and a link to `target`. */
  "final-name": `
    const fs = require("node:fs");
    const [name, target, decoy] = process.argv.slice(1);
    const stop = Date.now() + 60000;
    for (let i = 0; Date.now() < stop; i++) {
      const temp = name + ".swap";
      try {
        if (i % 2 === 0) fs.symlinkSync(target, temp); else fs.writeFileSync(temp, decoy);
        fs.renameSync(temp, name);
      } catch {}
    }`,
  /** Directory `name` alternates, by rename, with a link to directory `target`. */
  directory: `
    const fs = require("node:fs");
    const [name, target] = process.argv.slice(1);
    const real = name + ".real";
    const link = name + ".link";
    fs.symlinkSync(target, link);
    const stop = Date.now() + 60000;
    while (Date.now() < stop) {
      try { fs.renameSync(name, real); fs.renameSync(link, name); } catch {}
      try { fs.renameSync(name, link); fs.renameSync(real, name); } catch {}
    }`,
} as const;

export interface Swapper {
  stop(): Promise<void>;
}

/** Starts a swap loop in a child process; `stop()` kills it and waits for it to exit. */
export function startSwapper(kind: keyof typeof PROGRAMS, args: readonly string[]): Swapper {
  const child: ChildProcess = spawn(process.execPath, ["-e", PROGRAMS[kind], ...args], {
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    async stop() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}
