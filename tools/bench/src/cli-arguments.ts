export interface CliArguments {
  readonly json: boolean;
  readonly help: boolean;
  /** Benchmark names to run; empty means all. */
  readonly names: readonly string[];
}

export type ParsedArguments =
  | { readonly ok: true; readonly value: CliArguments }
  | { readonly ok: false; readonly error: string };

/** `[--json] [--help] [name…]`; a literal `--` (from `pnpm bench -- --json`) is ignored. */
export function parseArguments(argv: readonly string[]): ParsedArguments {
  let json = false;
  let help = false;
  const names: string[] = [];
  for (const argument of argv) {
    if (argument === "--") continue;
    if (argument === "--json") json = true;
    else if (argument === "--help" || argument === "-h") help = true;
    else if (argument.startsWith("-")) return { ok: false, error: `unknown option ${argument}` };
    else names.push(argument);
  }
  return { ok: true, value: { json, help, names } };
}
