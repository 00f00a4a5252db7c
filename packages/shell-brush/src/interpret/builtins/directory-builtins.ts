/** `cd`, `pwd`, `pushd`, `popd`, `dirs`: the working directory and the directory stack. */

import { refusalText } from "@agent-bridle/core";
import { resolvePath } from "../io/paths.js";
import type { Builtin, BuiltinContext } from "./builtin-context.js";

/** Change to `target` (a `stat` through the gate first); the status, errors reported. */
async function changeDirectory(
  context: BuiltinContext,
  command: string,
  target: string,
): Promise<number> {
  const path = resolvePath(context.state.cwd, target);
  const stats = await context.interpreter.access.stat(path);
  if (!stats.ok) {
    context.error(`${command}: ${target}: ${refusalText(stats)}`);
    return 1;
  }
  if (!stats.value.isDirectory()) {
    context.error(`${command}: ${target}: Not a directory`);
    return 1;
  }
  context.state.set("OLDPWD", context.state.cwd);
  context.state.cwd = path;
  context.state.set("PWD", path);
  return 0;
}

export const cd: Builtin = async (context, args) => {
  const operands = args.filter((arg) => arg !== "-L" && arg !== "-P" && arg !== "--");
  if (operands.length > 1) {
    context.error("cd: too many arguments");
    return 1;
  }
  let target = operands[0];
  if (target === undefined) {
    target = context.state.get("HOME");
    if (target === undefined) {
      context.error("cd: HOME not set");
      return 1;
    }
  }
  if (target === "-") {
    target = context.state.get("OLDPWD");
    if (target === undefined) {
      context.error("cd: OLDPWD not set");
      return 1;
    }
    const status = await changeDirectory(context, "cd", target);
    if (status === 0) context.stdout.write(`${context.state.cwd}\n`);
    return status;
  }
  if (target === "") return 0;
  return changeDirectory(context, "cd", target);
};

export const pwd: Builtin = (context) => {
  context.stdout.write(`${context.state.cwd}\n`);
  return 0;
};

function tilde(context: BuiltinContext, path: string): string {
  const home = context.state.get("HOME");
  if (home === undefined || home === "" || home === "/") return path;
  if (path === home) return "~";
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function printStack(context: BuiltinContext, long = false, lines = false, numbered = false) {
  const entries = [context.state.cwd, ...context.state.dirStack].map((entry) =>
    long ? entry : tilde(context, entry),
  );
  if (numbered)
    context.stdout.write(
      entries.map((entry, index) => `${String(index).padStart(2)}  ${entry}\n`).join(""),
    );
  else if (lines) context.stdout.write(entries.map((entry) => `${entry}\n`).join(""));
  else context.stdout.write(`${entries.join(" ")}\n`);
}

export const dirs: Builtin = (context, args) => {
  let long = false;
  let lines = false;
  let numbered = false;
  for (const arg of args) {
    if (!/^-[clpv]+$/.test(arg)) {
      context.error(`dirs: ${arg}: invalid option`);
      context.stderr.write("dirs: usage: dirs [-clpv] [+N] [-N]\n");
      return 1;
    }
    for (const flag of arg.slice(1)) {
      if (flag === "c") context.state.dirStack = [];
      else if (flag === "l") long = true;
      else if (flag === "p") lines = true;
      else numbered = true;
    }
  }
  if (args.some((arg) => arg.includes("c"))) return 0;
  printStack(context, long, lines, numbered);
  return 0;
};

export const pushd: Builtin = async (context, args) => {
  const noChange = args.includes("-n");
  const operands = args.filter((arg) => arg !== "-n" && arg !== "--");
  const state = context.state;
  const target = operands[0];
  if (target === undefined) {
    const top = state.dirStack[0];
    if (top === undefined) {
      context.error("pushd: no other directory");
      return 1;
    }
    const previous = state.cwd;
    const status = await changeDirectory(context, "pushd", top);
    if (status !== 0) return status;
    state.dirStack = [previous, ...state.dirStack.slice(1)];
    printStack(context);
    return 0;
  }
  if (noChange) {
    state.dirStack = [resolvePath(state.cwd, target), ...state.dirStack];
    printStack(context);
    return 0;
  }
  const previous = state.cwd;
  const status = await changeDirectory(context, "pushd", target);
  if (status !== 0) return status;
  state.dirStack = [previous, ...state.dirStack];
  printStack(context);
  return 0;
};

export const popd: Builtin = async (context, args) => {
  const state = context.state;
  const top = state.dirStack[0];
  if (top === undefined) {
    context.error("popd: directory stack empty");
    return 1;
  }
  if (!args.includes("-n")) {
    const status = await changeDirectory(context, "popd", top);
    if (status !== 0) return status;
  }
  state.dirStack = state.dirStack.slice(1);
  printStack(context);
  return 0;
};
