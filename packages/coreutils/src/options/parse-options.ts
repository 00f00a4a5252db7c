import type { ArgumentKind, OptionSpec, ParsedOption, ParseResult } from "./option-spec.js";
import { parseLongOption } from "./parse-long-option.js";

function shortKind(short: string, letter: string): ArgumentKind | undefined {
  const index = short.indexOf(letter);
  if (index === -1 || letter === ":") return undefined;
  if (short[index + 1] !== ":") return "none";
  return short[index + 2] === ":" ? "optional" : "required";
}

type ClusterStep =
  | { readonly ok: true; readonly consumedNext: boolean }
  | { readonly ok: false; readonly message: string };

function parseCluster(
  program: string,
  short: string,
  argument: string,
  next: string | undefined,
  into: ParsedOption[],
): ClusterStep {
  for (let index = 1; index < argument.length; index += 1) {
    const letter = argument[index] as string;
    const kind = shortKind(short, letter);
    if (kind === undefined) {
      return { ok: false, message: `${program}: invalid option -- '${letter}'\n` };
    }
    const spelling = `-${letter}`;
    if (kind === "none") {
      into.push({ key: letter, value: undefined, spelling });
      continue;
    }
    const rest = argument.slice(index + 1);
    if (rest.length > 0 || kind === "optional") {
      into.push({ key: letter, value: rest.length > 0 ? rest : undefined, spelling });
      return { ok: true, consumedNext: false };
    }
    if (next === undefined) {
      return { ok: false, message: `${program}: option requires an argument -- '${letter}'\n` };
    }
    into.push({ key: letter, value: next, spelling });
    return { ok: true, consumedNext: true };
  }
  return { ok: true, consumedNext: false };
}

/**
 * glibc getopt_long with argument permutation: options anywhere before `--`, short
 * clusters (`-nE`), attached or separate arguments, unambiguous long-name prefixes.
 * Errors carry glibc's exact text (without the "Try … --help" line).
 */
export function parseOptions(
  program: string,
  spec: OptionSpec,
  argv: readonly string[],
): ParseResult {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const next = argv[index + 1];
    if (argument === "--") {
      operands.push(...argv.slice(index + 1));
      break;
    }
    if (argument.startsWith("--")) {
      const step = parseLongOption(program, spec.long, argument, next);
      if (!step.ok) return { ok: false, message: step.message, options };
      options.push(step.option);
      if (step.consumedNext) index += 1;
      continue;
    }
    if (argument.length < 2 || !argument.startsWith("-")) {
      operands.push(argument);
      continue;
    }
    const step = parseCluster(program, spec.short, argument, next, options);
    if (!step.ok) return { ok: false, message: step.message, options };
    if (step.consumedNext) index += 1;
  }
  return { ok: true, options, operands };
}
