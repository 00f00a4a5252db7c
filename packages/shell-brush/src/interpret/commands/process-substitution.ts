/**
 * Process substitution without temporary files or the gate. `<(…)` runs its script at
 * once into memory; `>(…)` collects what the command writes and runs its script on it
 * after the command. Each is named `/dev/fd/N` (N from 63 down, as bash names them):
 * redirections, `source` and the in-process utilities read and write that name from
 * memory; an external command gets the bytes (or a writer) at descriptor N through the
 * `ExternalRunner`'s `descriptors`, so the same path works in the child.
 */
import type { Script } from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";
import { type Fds, InputSource, MemorySink } from "../io/io.js";

/** Expand `<(script)` or `>(script)` to the path standing for it. */
export async function processSubstitute(
  interpreter: ExecContext,
  script: Script,
  direction: "<" | ">",
): Promise<string> {
  const fds: Fds = new Map(interpreter.currentFds);
  const child = interpreter.fork();
  if (direction === "<") {
    const capture = new MemorySink();
    fds.set(1, capture);
    fds.set(0, new InputSource(new Uint8Array()));
    await child.subshellRun(() => child.script(script, fds), fds);
    return interpreter.substitutions.add({ direction, data: capture.bytes() });
  }
  const sink = new MemorySink();
  return interpreter.substitutions.add({
    direction,
    sink,
    reader: async () => {
      fds.set(0, new InputSource(sink.bytes()));
      await child.subshellRun(() => child.script(script, fds), fds);
    },
  });
}
