/** `source` / `.`: read a file through the gate's `open` and run it in this shell. */

import { decodeShellBytes } from "@agent-bridle/bash";
import { refusalText } from "@agent-bridle/core";
import { readAndClose } from "../io/gate.js";
import { resolvePath } from "../io/paths.js";
import { AssignmentAbort, ReturnSignal } from "../signals.js";
import type { Builtin } from "./builtin-context.js";

export const source: Builtin = async (context, args) => {
  const file = args[0];
  if (file === undefined) {
    context.error("source: filename argument required");
    context.stderr.write("source: usage: source filename [arguments]\n");
    return 2;
  }
  const opened = await context.interpreter.access.open(resolvePath(context.state.cwd, file));
  if (!opened.ok) {
    context.error(`${file}: ${refusalText(opened)}`);
    return 1;
  }
  let text: string;
  try {
    text = decodeShellBytes(await readAndClose(opened.value));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    context.error(`${file}: ${code === "EISDIR" ? "is a directory" : (error as Error).message}`);
    return 1;
  }
  const saved = context.state.positional;
  if (args.length > 1) context.state.positional = args.slice(1);
  const interpreter = context.interpreter;
  context.state.pushFrame({
    name: "source",
    source: file,
    callLine: interpreter.line,
    args: args.length > 1 ? args.slice(1) : [file],
  });
  const origin = interpreter.enterSource({ source: file, code: interpreter.code });
  interpreter.traceLevel += 1;
  try {
    return await interpreter.runSource(text, context.fds);
  } catch (signal) {
    if (signal instanceof ReturnSignal || signal instanceof AssignmentAbort) return signal.status;
    throw signal;
  } finally {
    interpreter.traceLevel -= 1;
    interpreter.leaveSource(origin);
    context.state.popFrame();
    if (args.length > 1) context.state.positional = saved;
  }
};
