/** Shell state: variables with dynamic scopes, functions, positional parameters, options. */
import type { FunctionDefinition } from "@agent-bridle/bash";
import { OPTION_NAMES, type ShellOptions } from "./shell-options.js";

export interface Variable {
  /** Scalar value, or null for an array (or a declared-but-unset variable with no array). */
  value: string | null;
  /** Indexed (numeric-string keys) or associative array elements. */
  array: Map<string, string> | null;
  assoc: boolean;
  exported: boolean;
  readonly: boolean;
  integer: boolean;
  lower: boolean;
  upper: boolean;
  /** `declare -n`: `value` names the variable this one stands for. */
  nameref: boolean;
  /** `local x` / `declare x` without a value: declared but unset. */
  declaredOnly: boolean;
  /** `declare -t` (traced functions' attribute; on a variable it is only shown). */
  trace?: boolean;
  /** A computed variable (`RANDOM`, `SECONDS`, …): its value is refreshed on every read. */
  dynamic?: DynamicValue;
}

/** A computed value (`dynamic-variables.ts`): a string, or the elements of an indexed array. */
export type DynamicValue = (state: ShellState) => string | readonly string[];

/** Bring a computed variable's value up to date. */
function refresh(state: ShellState, variable: Variable, getter: DynamicValue): void {
  const value = getter(state);
  if (typeof value === "string") variable.value = value;
  else variable.array = new Map(value.map((item, index) => [String(index), item]));
}

export function newVariable(value: string | null): Variable {
  return {
    value,
    array: null,
    assoc: false,
    exported: false,
    readonly: false,
    integer: false,
    lower: false,
    upper: false,
    nameref: false,
    declaredOnly: false,
  };
}

function caseOf(variable: Variable, value: string): string {
  if (variable.lower) return value.toLowerCase();
  if (variable.upper) return value.toUpperCase();
  return value;
}

function cloneVariable(variable: Variable): Variable {
  return { ...variable, array: variable.array === null ? null : new Map(variable.array) };
}

/** Numeric keys in order (indexed arrays), insertion order for associative ones. */
export function arrayKeys(variable: Variable): string[] {
  if (variable.array === null) return variable.value === null ? [] : ["0"];
  const keys = [...variable.array.keys()];
  return variable.assoc ? keys : keys.sort((left, right) => Number(left) - Number(right));
}

export function arrayValues(variable: Variable): string[] {
  if (variable.array === null) return variable.value === null ? [] : [variable.value];
  const array = variable.array;
  return arrayKeys(variable).map((key) => array.get(key) ?? "");
}

/** One entry of the call stack: a function call or a `source`. */
export interface Frame {
  /** `FUNCNAME`: the function's name, or `source`. */
  readonly name: string;
  /** `BASH_SOURCE`: the file the frame's code comes from (`main` for the script itself). */
  readonly source: string;
  /** `BASH_LINENO`: the line the frame was entered from, in the caller's file. */
  readonly callLine: number;
  /**
   * `BASH_ARGV`/`BASH_ARGC`: the frame's arguments when bash records them (always for
   * `source`, with its file name first; for a function only under `shopt -s extdebug`).
   */
  readonly args?: readonly string[];
}

/** A nameref that names another variable (`resolveName` follows it). */
function isNameref(variable: Variable | undefined): boolean {
  return variable?.nameref === true && !!variable.value;
}

/** `name[key]` split into name and key (a nameref may stand for an element), else null. */
function subscripted(name: string): RegExpExecArray | null {
  if (name.charCodeAt(name.length - 1) !== 93) return null;
  return /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(name);
}

export class ShellState {
  /** `scopes[0]` is the global scope; each function call pushes one. */
  scopes: Map<string, Variable>[] = [new Map()];
  functions = new Map<string, FunctionDefinition>();
  positional: string[] = [];
  scriptName = "bash";
  lastStatus = 0;
  options: ShellOptions = Object.fromEntries(
    OPTION_NAMES.map((name) => [
      name,
      name === "braceexpand" || name === "hashall" || name === "interactive-comments",
    ]),
  ) as ShellOptions;
  shopt = new Set<string>(["extglob"]);
  cwd: string;
  readonly pid: number;
  funcNames: string[] = [];
  /** The call stack, innermost last (functions and `source`). */
  frames: Frame[] = [];
  /** `trap` actions by condition: `EXIT`, `ERR`, `RETURN`, `DEBUG` or a signal (`SIGINT`). */
  traps = new Map<string, string>();
  /** The parent's traps, shown by `trap -p` in a subshell but never run there. */
  inheritedTraps = new Map<string, string>();
  /** `$!`. */
  lastBackground: string | undefined;
  /** `getopts`' place inside a group of options (`-abc`). */
  getopts = { optind: 1, position: 1 };
  /** `$_`: the last argument of the previous simple command. */
  lastArgument = "";
  /** `pushd`'s stack, below the current directory. */
  dirStack: string[] = [];
  /** `hash`: programs found on `PATH`, by name. */
  hashed = new Map<string, string>();
  /** `ulimit` values the script set (remembered, not applied). */
  limits = new Map<string, string>();
  /** `alias` definitions. */
  aliases = new Map<string, string>();
  /** `BASH_ARGC` shows the script's own count (once a frame has recorded arguments). */
  private scriptArgsShown = false;
  /** Builtins turned off by `enable -n`. */
  disabledBuiltins = new Set<string>();
  /** `BASH_SUBSHELL`: how many subshells deep this state is. */
  subshellLevel = 0;
  /** When the shell started (`SECONDS`). */
  startedAt = Date.now();
  /** The line being run (`LINENO`); the interpreter that owns the state sets it. */
  currentLine: () => number = () => 0;

  constructor(cwd: string, pid = 4242) {
    this.cwd = cwd;
    this.pid = pid;
  }

  fork(): ShellState {
    const copy = new ShellState(this.cwd, this.pid);
    copy.scopes = this.scopes.map(
      (scope) => new Map([...scope].map(([name, variable]) => [name, cloneVariable(variable)])),
    );
    copy.functions = new Map(this.functions);
    copy.positional = [...this.positional];
    copy.scriptName = this.scriptName;
    copy.lastStatus = this.lastStatus;
    copy.options = { ...this.options };
    copy.shopt = new Set(this.shopt);
    copy.funcNames = [...this.funcNames];
    copy.frames = [...this.frames];
    copy.lastArgument = this.lastArgument;
    // A subshell keeps ignored signals only; other traps reset (`trap -p` still shows them).
    // `set -T` keeps DEBUG and RETURN, `set -E` keeps ERR.
    const kept = (name: string, action: string): boolean =>
      action === "" ||
      ((name === "DEBUG" || name === "RETURN") && this.options.functrace) ||
      (name === "ERR" && this.options.errtrace);
    copy.traps = new Map([...this.traps].filter(([name, action]) => kept(name, action)));
    copy.inheritedTraps = new Map([...this.inheritedTraps, ...this.traps]);
    copy.lastBackground = this.lastBackground;
    copy.dirStack = [...this.dirStack];
    copy.hashed = new Map(this.hashed);
    copy.limits = new Map(this.limits);
    copy.aliases = new Map(this.aliases);
    copy.subshellLevel = this.subshellLevel + 1;
    copy.disabledBuiltins = new Set(this.disabledBuiltins);
    copy.scriptArgsShown = this.scriptArgsShown;
    copy.startedAt = this.startedAt;
    return copy;
  }

  /** Enter a function or a sourced file. */
  pushFrame(frame: Frame): void {
    this.frames.push(frame);
    this.syncStack();
  }

  popFrame(): void {
    this.frames.pop();
    this.syncStack();
  }

  /** `FUNCNAME`, `BASH_SOURCE`, `BASH_LINENO` as arrays, innermost first (bash keeps them so). */
  syncStack(): void {
    const frames = [...this.frames].reverse();
    const global = this.scopes[0] as Map<string, Variable>;
    const columns: [string, (frame: Frame) => string][] = [
      ["FUNCNAME", (frame) => frame.name],
      ["BASH_SOURCE", (frame) => frame.source],
      ["BASH_LINENO", (frame) => String(frame.callLine)],
    ];
    for (const [name, column] of columns) {
      const existing = global.get(name);
      if (existing !== undefined && (existing.array === null || existing.assoc)) continue;
      const variable = existing ?? newVariable(null);
      variable.array = new Map(frames.map((frame, index) => [String(index), column(frame)]));
      variable.declaredOnly = frames.length === 0;
      global.set(name, variable);
    }
    // FUNCNAME exists only while a function runs (a `source` alone leaves it empty).
    const funcName = global.get("FUNCNAME");
    if (funcName?.array !== null && funcName !== undefined && !funcName.assoc) {
      if (frames.every((frame) => frame.name === "source")) funcName.array = new Map();
    }
    this.syncArguments(frames, global);
  }

  /** `BASH_ARGC`/`BASH_ARGV` from the frames that record arguments, plus the script's 0. */
  private syncArguments(frames: readonly Frame[], global: Map<string, Variable>): void {
    const counts: string[] = [];
    const values: string[] = [];
    for (const frame of frames) {
      if (frame.args === undefined) continue;
      counts.push(String(frame.args.length));
      values.push(...[...frame.args].reverse());
    }
    // The script's own entry appears with the first recorded frame and stays (bash).
    if (counts.length > 0) this.scriptArgsShown = true;
    if (this.scriptArgsShown) counts.push("0");
    for (const [name, items] of [
      ["BASH_ARGC", counts],
      ["BASH_ARGV", values],
    ] as const) {
      const variable = global.get(name);
      if (variable === undefined || variable.array === null || variable.assoc) continue;
      variable.array = new Map(items.map((item, index) => [String(index), item]));
    }
  }

  /** The variable itself, namerefs not followed. */
  lookupRaw(name: string): Variable | undefined {
    for (let index = this.scopes.length - 1; index >= 0; index -= 1) {
      const found = this.scopes[index]?.get(name);
      if (found === undefined) continue;
      if (found.dynamic !== undefined) refresh(this, found, found.dynamic);
      return found;
    }
    return undefined;
  }

  /** True when `name` is a nameref whose chain comes back on itself. */
  circular(name: string): boolean {
    const first = this.lookupRaw(name);
    if (first === undefined || !first.nameref || !first.value) return false;
    const seen = new Set<string>();
    let current = name;
    for (;;) {
      const variable = this.lookupRaw(current);
      if (variable === undefined || !variable.nameref || !variable.value) return false;
      if (seen.has(current)) return true;
      seen.add(current);
      current = variable.value;
    }
  }

  /** The name a nameref chain ends at (the name itself when it is no nameref). */
  resolveName(name: string): string {
    let current = name;
    for (let depth = 0; depth < 10; depth += 1) {
      const variable = this.lookupRaw(current);
      if (variable === undefined || !variable.nameref || !variable.value) return current;
      current = variable.value;
    }
    return current;
  }

  lookup(name: string): Variable | undefined {
    return this.lookupRaw(this.resolveName(name));
  }

  /** The scope a new assignment lands in: where the name lives, else the global scope. */
  private scopeFor(name: string): Map<string, Variable> {
    for (let index = this.scopes.length - 1; index >= 0; index -= 1) {
      const scope = this.scopes[index] as Map<string, Variable>;
      if (scope.has(name)) return scope;
    }
    return this.scopes[0] as Map<string, Variable>;
  }

  /** Scalar value (element 0 of an array); undefined when unset. */
  get(rawName: string): string | undefined {
    const direct = this.lookupRaw(rawName);
    const resolved = isNameref(direct) ? this.resolveName(rawName) : rawName;
    const subscript = subscripted(resolved);
    if (subscript !== null) {
      const target = this.lookupRaw(subscript[1] as string);
      const key = subscript[2] as string;
      if (target?.array === null || target === undefined)
        return key === "0" ? (target?.value ?? undefined) : undefined;
      if (!target.assoc && key.startsWith("-")) {
        const keys = arrayKeys(target);
        return target.array.get(String(Number(keys[keys.length - 1] ?? -1) + 1 + Number(key)));
      }
      return target.array.get(key);
    }
    const variable = resolved === rawName ? direct : this.lookupRaw(resolved);
    if (variable === undefined || variable.declaredOnly) return undefined;
    if (variable.array !== null) return variable.array.get("0");
    return variable.value ?? undefined;
  }

  /** Set a scalar (or element 0 of an array); throws ReadonlyError. */
  set(rawName: string, rawValue: string): Variable {
    const direct = this.lookupRaw(rawName);
    const nameref = isNameref(direct);
    if (nameref && this.circular(rawName)) throw new CircularNameError(rawName);
    const name = nameref ? this.resolveName(rawName) : rawName;
    const subscript = subscripted(name);
    if (subscript !== null) {
      this.setElement(subscript[1] as string, subscript[2] as string, rawValue);
      return this.lookupRaw(subscript[1] as string) as Variable;
    }
    // Not a nameref: the variable is `direct`, in the innermost scope that has the name.
    const scope = nameref ? this.scopeFor(name) : (this.scopes[0] as Map<string, Variable>);
    let variable = nameref ? scope.get(name) : direct;
    if (variable === undefined) {
      variable = newVariable(rawValue);
      if (this.options.allexport) variable.exported = true;
      scope.set(name, variable);
      return variable;
    }
    if (variable.readonly) throw new ReadonlyError(name);
    const value = caseOf(variable, rawValue);
    variable.declaredOnly = false;
    if (variable.array !== null) variable.array.set("0", value);
    else variable.value = value;
    return variable;
  }

  setElement(rawName: string, key: string, rawValue: string): void {
    const name = this.resolveName(rawName);
    const scope = this.scopeFor(name);
    let variable = scope.get(name);
    if (variable === undefined) {
      variable = newVariable(null);
      scope.set(name, variable);
    }
    if (variable.readonly) throw new ReadonlyError(name);
    const value = caseOf(variable, rawValue);
    variable.declaredOnly = false;
    if (variable.array === null) {
      variable.array = new Map();
      if (variable.value !== null) variable.array.set("0", variable.value);
      variable.value = null;
    }
    variable.array.set(key, value);
  }

  setArray(rawName: string, values: Map<string, string>, assoc: boolean): void {
    const name = this.resolveName(rawName);
    const scope = this.scopeFor(name);
    let variable = scope.get(name);
    if (variable === undefined) {
      variable = newVariable(null);
      scope.set(name, variable);
    }
    if (variable.readonly) throw new ReadonlyError(name);
    variable.declaredOnly = false;
    variable.value = null;
    if (variable.lower || variable.upper)
      for (const [key, value] of values) values.set(key, caseOf(variable, value));
    variable.array = values;
    variable.assoc = assoc || variable.assoc;
  }

  /** `local name`: a variable in the innermost function scope. */
  declareLocal(name: string): Variable {
    const scope = this.scopes[this.scopes.length - 1] as Map<string, Variable>;
    let variable = scope.get(name);
    if (variable === undefined) {
      variable = newVariable(null);
      variable.declaredOnly = true;
      scope.set(name, variable);
    }
    return variable;
  }

  /** A declared-but-unset variable in the global scope. */
  declareGlobal(name: string): Variable {
    const scope = this.scopes[0] as Map<string, Variable>;
    let variable = scope.get(name);
    if (variable === undefined) {
      variable = newVariable(null);
      variable.declaredOnly = true;
      scope.set(name, variable);
    }
    return variable;
  }

  unset(rawName: string, followNameref = true): void {
    const name = followNameref ? this.resolveName(rawName) : rawName;
    const subscript = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(name);
    if (subscript !== null) {
      this.lookupRaw(subscript[1] as string)?.array?.delete(subscript[2] as string);
      return;
    }
    for (let index = this.scopes.length - 1; index >= 0; index -= 1) {
      const scope = this.scopes[index] as Map<string, Variable>;
      const variable = scope.get(name);
      if (variable === undefined) continue;
      if (variable.readonly) throw new ReadonlyError(name);
      scope.delete(name);
      return;
    }
  }

  /** Every visible variable name, sorted. */
  names(): string[] {
    const names = new Set<string>();
    for (const scope of this.scopes) for (const name of scope.keys()) names.add(name);
    return [...names].sort();
  }

  exportedEnv(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const name of this.names()) {
      // An exported nameref passes its own value (the name it refers to), as in bash.
      const variable = this.lookupRaw(name);
      if (variable?.exported && !variable.declaredOnly && variable.array === null) {
        env[name] = variable.value ?? "";
      }
    }
    return env;
  }
}

export class ReadonlyError extends Error {
  constructor(
    readonly variable: string,
    message = `${variable}: readonly variable`,
  ) {
    super(message);
  }
}

/** An assignment through a nameref chain that loops (bash warns and fails the command). */
export class CircularNameError extends ReadonlyError {
  constructor(variable: string) {
    super(variable, `warning: ${variable}: circular name reference`);
  }
}
