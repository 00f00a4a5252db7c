import { CAT_SPEC, catSettings } from "../cat/cat-options.js";
import { parseHeadOptions } from "../head/head-options.js";
import { LS_SPEC, lsSettings } from "../ls/ls-options.js";
import type { OptionSpec, ParsedOption } from "../options/option-spec.js";
import { parseOptions } from "../options/parse-options.js";
import { actedOnWhileReading } from "../options/read-first.js";
import { parseSortOptions } from "../sort/sort-options.js";
import { WC_SPEC, wcSettings } from "../wc/wc-options.js";

/**
 * Whether a utility carries what `argv` asks for. Refused: the spelling of the first GNU
 * option it does not implement (`--color`, `-z`, `--help`, `--version`), which the
 * utility itself would refuse with status 1 or 2 before touching anything.
 */
export type InProcessSupport =
  | { readonly ok: true }
  | { readonly ok: false; readonly spelling: string };

const SUPPORTED: InProcessSupport = Object.freeze({ ok: true });

const refused = (spelling: string | undefined): InProcessSupport =>
  spelling === undefined ? SUPPORTED : Object.freeze({ ok: false, spelling });

function viaSettings(
  program: string,
  spec: OptionSpec,
  argv: readonly string[],
  settingsOf: (options: readonly ParsedOption[]) => { ok: true } | { ok: false; spelling: string },
): InProcessSupport {
  const parsed = parseOptions(program, spec, argv);
  if (!parsed.ok) return refused(actedOnWhileReading(parsed.options));
  const settings = settingsOf(parsed.options);
  return settings.ok ? SUPPORTED : refused(settings.spelling);
}

/**
 * Decided from the arguments alone, with the utility's own option parser, before anything
 * is read or written: a caller that can run the host's program of the same name hands it
 * everything refused here (the bash engine does), and runs the utility for the rest. A
 * usage error GNU would print the same way (`ls -y`) stays supported: the utility prints
 * GNU's text. `echo` (and any name that is not a utility) is always supported.
 */
export function checkInProcess(name: string, argv: readonly string[]): InProcessSupport {
  switch (name) {
    case "ls":
      return viaSettings("ls", LS_SPEC, argv, lsSettings);
    case "cat":
      return viaSettings("cat", CAT_SPEC, argv, catSettings);
    case "wc":
      return viaSettings("wc", WC_SPEC, argv, wcSettings);
    case "head": {
      const parsed = parseHeadOptions(argv);
      return parsed.ok ? SUPPORTED : refused(parsed.unsupported);
    }
    case "sort": {
      const parsed = parseSortOptions(argv);
      return parsed.ok ? SUPPORTED : refused(parsed.unsupported);
    }
    default:
      return SUPPORTED;
  }
}
