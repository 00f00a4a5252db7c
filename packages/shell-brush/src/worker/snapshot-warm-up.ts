/**
 * Run once while the startup snapshot is built: the code every call uses (parser,
 * interpreter, expansions, the frame writer, caveats parsing, the Gate) is compiled then,
 * and a worker started from the snapshot does not compile it again on its first call.
 * Touches no file and starts nothing: the access refuses every path, the runner runs
 * nothing.
 */
import { caveats, defaultPathPolicy, Gate, parseCaveats, top } from "@agent-bridle/core";
import { Interpreter } from "../interpret/interpreter.js";
import type { ShellAccess } from "../interpret/io/shell-access.js";
import { FrameReader } from "./frame-reader.js";
import { FrameWriter } from "./frame-writer.js";

const nothing = async () => ({ ok: false as const, errno: "ENOENT" });

const NO_ACCESS: ShellAccess = {
  open: nothing,
  openWrite: nothing,
  openRedirect: nothing,
  stat: nothing,
  lstat: nothing,
  statProgram: nothing,
  readdir: nothing,
  readlink: nothing,
  checkExec: async () => ({ ok: true, value: undefined }),
};

const SCRIPT = `x=1; y="a b"; echo "$x" $y hi; printf '%s\\n' "\${y%b}" >&2
for i in 1 2 3; do z=$((i * 2 + x)); done; (( z > 1 )) && echo "$z"
f() { local v=$1; echo "\${v:-none}"; }; f arg; [[ -n $x && $y == a* ]] && echo yes
case $x in 1) echo one ;; *) echo other ;; esac; a=(1 2 3); echo "\${#a[@]}" "\${a[*]}"
while false; do :; done; echo "$(echo sub)"; ls /nowhere 2>/dev/null; true | cat
i=0; while (( i < 2000 )); do (( i++ )); done; for ((j = 0; j < 200; j++)); do k=$j; done; exit 0`;

export async function warmUp(): Promise<void> {
  parseCaveats(JSON.parse(JSON.stringify(caveats(top()))));
  const cx = new Gate({ pathPolicy: defaultPathPolicy({ platform: "linux", home: undefined }) });
  cx.authorize({ name: "shell", required: top() }, top());
  const frames: Buffer[] = [];
  const writer = new FrameWriter((frame) => frames.push(frame), 1 << 20);
  writer.started();
  for (let round = 0; round < 3; round += 1) {
    const interpreter = new Interpreter({
      cwd: "/",
      env: { PATH: "/usr/bin:/bin", HOME: "/" },
      access: NO_ACCESS,
      runner: { run: async () => ({ status: 0 }) },
      stdout: { write: (chunk) => writer.output("stdout", Buffer.from(chunk)) },
      stderr: { write: (chunk) => writer.output("stderr", Buffer.from(chunk)) },
    });
    await interpreter.run(SCRIPT);
  }
  writer.terminal(0);
  const reader = new FrameReader(() => undefined, 1 << 24);
  for (const frame of frames) reader.push(frame);
  reader.end();
}
