/** More builtins: `getopts`, `shopt`, `type`, `command`, `builtin`, `mapfile`, `wait` and friends. */

import { encodeShellText } from "@agent-bridle/bash";
import { BASH_RESERVED_WORDS } from "@agent-bridle/core";
import { programsOnPath } from "../commands/command-search.js";
import { isCarried } from "../commands/external-command.js";
import type { Builtin, BuiltinContext } from "./builtin-context.js";

/** Options `shopt` knows, with bash's defaults for a non-interactive shell. */
export const SHOPT_NAMES: readonly string[] = [
  "autocd",
  "cdable_vars",
  "cdspell",
  "checkhash",
  "checkjobs",
  "checkwinsize",
  "cmdhist",
  "dotglob",
  "execfail",
  "expand_aliases",
  "extdebug",
  "extglob",
  "extquote",
  "failglob",
  "force_fignore",
  "globasciiranges",
  "globskipdots",
  "globstar",
  "gnu_errfmt",
  "histappend",
  "inherit_errexit",
  "lastpipe",
  "lithist",
  "nocaseglob",
  "nocasematch",
  "noexpand_translation",
  "nullglob",
  "patsub_replacement",
  "progcomp",
  "promptvars",
  "shift_verbose",
  "sourcepath",
  "xpg_echo",
];

const getopts: Builtin = (context, args) => {
  const state = context.state;
  const optstring = args[0];
  const name = args[1];
  if (optstring === undefined || name === undefined) {
    context.error("getopts: usage: getopts optstring name [arg ...]");
    return 2;
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    context.error(`getopts: \`${name}': not a valid identifier`);
    return 1;
  }
  const operands = args.length > 2 ? args.slice(2) : state.positional;
  const report = state.get("OPTERR") !== "0";
  let optind = Number(state.get("OPTIND") ?? "1") || 1;
  if (optind !== state.getopts.optind) state.getopts.position = 1;
  const silent = optstring.startsWith(":");
  const finish = (status: number): number => {
    state.set("OPTIND", String(optind));
    state.getopts.optind = optind;
    return status;
  };
  const arg = operands[optind - 1];
  if (state.getopts.position === 1) {
    // At the end, OPTARG is unset (bash).
    if (arg === undefined || !arg.startsWith("-") || arg === "-") {
      state.set(name, "?");
      state.unset("OPTARG");
      return finish(1);
    }
    if (arg === "--") {
      optind += 1;
      state.set(name, "?");
      state.unset("OPTARG");
      return finish(1);
    }
  }
  const current = arg ?? "";
  const letter = current[state.getopts.position] ?? "";
  state.getopts.position += 1;
  if (state.getopts.position >= current.length) {
    optind += 1;
    state.getopts.position = 1;
  }
  const at = letter === ":" ? -1 : optstring.indexOf(letter);
  if (at < 0) {
    if (silent) {
      state.set("OPTARG", letter);
    } else {
      if (report) context.stderr.write(`${state.scriptName}: illegal option -- ${letter}\n`);
      state.unset("OPTARG");
    }
    state.set(name, "?");
    return finish(0);
  }
  if (optstring[at + 1] === ":") {
    if (state.getopts.position > 1) {
      state.set("OPTARG", current.slice(state.getopts.position));
      optind += 1;
      state.getopts.position = 1;
    } else if (optind <= operands.length) {
      state.set("OPTARG", operands[optind - 1] as string);
      optind += 1;
    } else {
      if (silent) {
        state.set(name, ":");
        state.set("OPTARG", letter);
      } else {
        if (report)
          context.stderr.write(`${state.scriptName}: option requires an argument -- ${letter}\n`);
        state.set(name, "?");
        state.unset("OPTARG");
      }
      return finish(0);
    }
  } else state.unset("OPTARG");
  state.set(name, letter);
  return finish(0);
};

const shopt: Builtin = (context, args) => {
  let mode: "s" | "u" | null = null;
  let quiet = false;
  let print = false;
  let setOptions = false;
  const names: string[] = [];
  for (const arg of args) {
    if (/^-[supqo]+$/.test(arg) && names.length === 0) {
      for (const flag of arg.slice(1)) {
        if (flag === "s" || flag === "u") mode = flag;
        else if (flag === "q") quiet = true;
        else if (flag === "p") print = true;
        else if (flag === "o") setOptions = true;
      }
    } else names.push(arg);
  }
  const state = context.state;
  if (setOptions) {
    const options = state.options as unknown as Record<string, boolean>;
    for (const name of names) {
      if (!(name in options)) {
        context.error(`shopt: ${name}: invalid option name`);
        return 1;
      }
      if (mode !== null) options[name] = mode === "s";
    }
    return 0;
  }
  let status = 0;
  for (const name of names) {
    if (!SHOPT_NAMES.includes(name)) {
      context.error(`shopt: ${name}: invalid shell option name`);
      status = 1;
    }
  }
  if (status !== 0) return status;
  if (mode !== null) {
    for (const name of names) {
      if (mode === "s") state.shopt.add(name);
      else state.shopt.delete(name);
    }
    if (names.length > 0) return 0;
  }
  const listed = names.length > 0 ? names : SHOPT_NAMES;
  for (const name of listed) {
    const on = state.shopt.has(name);
    if (mode === "s" && !on) continue;
    if (mode === "u" && on) continue;
    if (!on && names.length > 0) status = 1;
    if (quiet) continue;
    context.stdout.write(
      print ? `shopt ${on ? "-s" : "-u"} ${name}\n` : `${name.padEnd(15)}\t${on ? "on" : "off"}\n`,
    );
  }
  return status;
};

type Kind = "alias" | "keyword" | "function" | "builtin" | "file";

interface Found {
  readonly kind: Kind;
  /** The program's path (files), or the alias's value. */
  readonly path?: string;
  readonly hashed?: boolean;
}

async function kindsOf(context: BuiltinContext, name: string, all = false): Promise<Found[]> {
  const found: Found[] = [];
  const alias = context.state.aliases.get(name);
  if (alias !== undefined) found.push({ kind: "alias", path: alias });
  if (BASH_RESERVED_WORDS.has(name)) found.push({ kind: "keyword" });
  const fn = context.state.functions.get(name);
  if (fn !== undefined)
    found.push({ kind: "function", path: context.interpreter.functionText(fn) });
  // An in-process utility is this shell's own, as a builtin is: named as one, ahead of
  // the program of its name (which `type -a` and `type -P` still show, and which runs
  // what the utility does not carry). ADR 0015.
  if (context.interpreter.isBuiltin(name) || isCarried(name)) found.push({ kind: "builtin" });
  const hashed = context.state.hashed.get(name);
  if (hashed !== undefined && !all) {
    found.push({ kind: "file", path: hashed, hashed: true });
    return found;
  }
  const paths = await programsOnPath(context.interpreter, name, all);
  for (const path of paths) found.push({ kind: "file", path });
  return found;
}

function describeFound(name: string, found: Found): string {
  if (found.kind === "file")
    return found.hashed ? `${name} is hashed (${found.path})` : `${name} is ${found.path}`;
  if (found.kind === "alias") return `${name} is aliased to \`${found.path}'`;
  if (found.kind === "function") return `${name} is a function\n${found.path ?? ""}`;
  return `${name} is a shell ${found.kind}`;
}

const type: Builtin = async (context, args) => {
  let mode: "t" | "p" | "P" | null = null;
  let all = false;
  const names: string[] = [];
  for (const arg of args) {
    if (/^-[atpPf]+$/.test(arg) && names.length === 0) {
      for (const flag of arg.slice(1)) {
        if (flag === "a") all = true;
        else if (flag === "t" || flag === "p" || flag === "P") mode = flag;
      }
    } else names.push(arg);
  }
  let status = 0;
  for (const name of names) {
    let kinds = await kindsOf(context, name, all);
    if (mode === "P") kinds = kinds.filter((kind) => kind.kind === "file");
    if (!all) kinds = kinds.slice(0, 1);
    if (kinds.length === 0) {
      if (mode === null) context.error(`type: ${name}: not found`);
      status = 1;
      continue;
    }
    for (const kind of kinds) {
      if (mode === "t") context.stdout.write(`${kind.kind}\n`);
      else if (mode === "p" || mode === "P") {
        if (kind.kind === "file") context.stdout.write(`${kind.path}\n`);
      } else context.stdout.write(`${describeFound(name, kind)}\n`);
    }
  }
  return status;
};

const command: Builtin = async (context, args) => {
  let index = 0;
  let describe: "v" | "V" | null = null;
  for (; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--") {
      index += 1;
      break;
    }
    if (!/^-[pvV]+$/.test(arg)) break;
    for (const flag of arg.slice(1)) if (flag === "v" || flag === "V") describe = flag;
  }
  const rest = args.slice(index);
  if (describe !== null) {
    let status = 0;
    for (const name of rest) {
      const kind = (await kindsOf(context, name))[0];
      if (kind === undefined) {
        if (describe === "V") context.error(`command: ${name}: not found`);
        status = 1;
        continue;
      }
      if (describe === "v")
        context.stdout.write(
          kind.kind === "file"
            ? `${kind.path}\n`
            : kind.kind === "alias"
              ? `alias ${name}='${(kind.path ?? "").replace(/'/g, "'\\''")}'\n`
              : `${name}\n`,
        );
      else context.stdout.write(`${describeFound(name, kind)}\n`);
    }
    return status;
  }
  if (rest.length === 0) return 0;
  return context.interpreter.invoke(rest, context.fds, { functions: false, externals: true });
};

const builtin: Builtin = async (context, args) => {
  const name = args[0];
  if (name === undefined) return 0;
  const carried = isCarried(name);
  if (!context.interpreter.isBuiltin(name) && !carried) {
    context.error(`builtin: ${name}: not a shell builtin`);
    return 1;
  }
  // `builtin ls` runs what `ls` runs, minus functions: the utility, exec-checked.
  return context.interpreter.invoke(args, context.fds, { functions: false, externals: carried });
};

const mapfile: Builtin = async (context, args) => {
  let delimiter = "\n";
  let trim = false;
  let count = 0;
  let origin = 0;
  let keep = false;
  let skip = 0;
  let name = "MAPFILE";
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "-d") delimiter = args[++index] ?? "\n";
    else if (arg === "-t") trim = true;
    else if (arg === "-n") count = Number(args[++index] ?? 0);
    else if (arg === "-O") {
      origin = Number(args[++index] ?? 0);
      keep = true;
    } else if (arg === "-s") skip = Number(args[++index] ?? 0);
    else if (arg === "-u" || arg === "-C" || arg === "-c") index += 1;
    else name = arg;
  }
  const state = context.state;
  if (origin < 0 || Number.isNaN(origin)) {
    context.error(`mapfile: ${origin}: invalid array origin`);
    return 1;
  }
  const existing = state.lookup(name);
  if (existing?.assoc) {
    context.error(`mapfile: ${name}: not an indexed array`);
    return 1;
  }
  // With -O the array is not cleared first; a scalar stays as element 0 (bash).
  const kept =
    existing === undefined || existing.declaredOnly
      ? []
      : existing.array !== null
        ? [...existing.array]
        : existing.value !== null
          ? [["0", existing.value] as [string, string]]
          : [];
  const values = new Map<string, string>(keep ? kept : []);
  const code = delimiter === "" ? 0 : (encodeShellText(delimiter)[0] as number);
  await context.stdin.fillAll();
  let read = 0;
  let position = origin;
  for (;;) {
    if (count > 0 && read >= count) break;
    const piece = context.stdin.readUntil(code);
    if (piece === null) break;
    if (skip > 0) {
      skip -= 1;
      continue;
    }
    values.set(String(position), trim || !piece.found ? piece.text : piece.text + delimiter);
    position += 1;
    read += 1;
  }
  state.setArray(name, values, false);
  return 0;
};

export const MORE_BUILTINS: readonly [string, Builtin][] = [
  ["getopts", getopts],
  ["shopt", shopt],
  ["type", type],
  ["command", command],
  ["builtin", builtin],
  ["mapfile", mapfile],
  ["readarray", mapfile],
  [
    "times",
    (context) => {
      context.stdout.write("0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n");
      return 0;
    },
  ],
];
