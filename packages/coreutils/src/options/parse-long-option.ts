import type { LongOption, ParsedOption } from "./option-spec.js";

export type LongStep =
  | { readonly ok: true; readonly option: ParsedOption; readonly consumedNext: boolean }
  | { readonly ok: false; readonly message: string };

function sameOption(left: LongOption, right: LongOption): boolean {
  return left.key === right.key && left.argument === right.argument;
}

function findLong(
  table: readonly LongOption[],
  name: string,
): LongOption | { ambiguous: LongOption[] } | undefined {
  const exact = table.find((option) => option.name === name);
  if (exact !== undefined) return exact;
  const matches = table.filter((option) => option.name.startsWith(name));
  const first = matches[0];
  if (first === undefined) return undefined;
  if (matches.every((option) => sameOption(option, first))) return first;
  return { ambiguous: matches };
}

/** One `--name[=value]` argument, as glibc's getopt_long reads it (messages included). */
export function parseLongOption(
  program: string,
  table: readonly LongOption[],
  argument: string,
  next: string | undefined,
): LongStep {
  const body = argument.slice(2);
  const equals = body.indexOf("=");
  const name = equals === -1 ? body : body.slice(0, equals);
  const found = findLong(table, name);
  if (found === undefined) {
    return { ok: false, message: `${program}: unrecognized option '--${body}'\n` };
  }
  if ("ambiguous" in found) {
    const list = found.ambiguous.map((option) => ` '--${option.name}'`).join("");
    return {
      ok: false,
      message: `${program}: option '--${name}' is ambiguous; possibilities:${list}\n`,
    };
  }
  const spelling = `--${found.name}`;
  if (equals !== -1) {
    if (found.argument === "none") {
      return { ok: false, message: `${program}: option '${spelling}' doesn't allow an argument\n` };
    }
    const option = { key: found.key, value: body.slice(equals + 1), spelling };
    return { ok: true, option, consumedNext: false };
  }
  if (found.argument === "required") {
    if (next === undefined) {
      return { ok: false, message: `${program}: option '${spelling}' requires an argument\n` };
    }
    return { ok: true, option: { key: found.key, value: next, spelling }, consumedNext: true };
  }
  return { ok: true, option: { key: found.key, value: undefined, spelling }, consumedNext: false };
}
