import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What real bash did with one script: its stdout and the files in its directory. */
export interface BashObservation {
  readonly stdout: string;
  readonly files: Record<string, string>;
  readonly cwd: string;
}

/** Bash's message for a missing input file, reduced to the oracle's normal form. */
function normalise(text: string): string {
  return text.replaceAll(/bash: line \d{1,6}: nx: No such file or directory\n/gu, "<ENOENT nx>");
}

/** Each script runs as `bash --norc --noprofile -c <script>` in a fresh directory. */
const DRIVER = `root=$1; shift; i=0
for s in "$@"; do
  mkdir "$root/s$i" && cd "$root/s$i" && printf IN > in
  bash --norc --noprofile -c "$s" > "$root/o$i" 2> /dev/null < /dev/null
  i=$((i + 1))
done`;

export interface BashSandbox {
  readonly root: string;
  readonly home: string;
  dispose(): Promise<void>;
}

export async function createBashSandbox(): Promise<BashSandbox> {
  const root = await mkdtemp(join(tmpdir(), "shell-safe-oracle-"));
  const home = join(root, "home");
  await mkdir(home);
  return { root, home, dispose: () => rm(root, { recursive: true, force: true }) };
}

function run(args: readonly string[], home: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      "/bin/bash",
      ["--norc", "--noprofile", "-c", DRIVER, "driver", ...args],
      { env: { PATH: "/usr/bin:/bin", LC_ALL: "C", HOME: home }, maxBuffer: 1 << 20 },
      (error) => (error === null ? resolve() : reject(error)),
    ).stdin?.end();
  });
}

/** Runs a batch of scripts in one bash driver and collects what each did. */
export async function observeBash(
  sandbox: BashSandbox,
  batch: string,
  scripts: readonly string[],
): Promise<BashObservation[]> {
  const root = join(sandbox.root, batch);
  await mkdir(root);
  await run([root, ...scripts], sandbox.home);
  return Promise.all(
    scripts.map(async (_script, index) => {
      const cwd = join(root, `s${index}`);
      const files: Record<string, string> = {};
      for (const name of (await readdir(cwd)).sort()) {
        files[name] = normalise(await readFile(join(cwd, name), "latin1"));
      }
      const stdout = normalise(await readFile(join(root, `o${index}`), "latin1"));
      return { stdout, files, cwd };
    }),
  );
}
