/** A stage's redirections as the inventory lists them (reference §7.1 `InspectedRedirect`). */
import type { Redirect } from "../parse/ast-command.js";
import { quoteSource, ShellInspectionError } from "./inspection-error.js";
import { type InspectionLevel, textOf } from "./level.js";
import { staticWord } from "./static-word.js";
import type { InspectedRedirect, RedirectOperation } from "./types.js";
import { inspectWord } from "./words.js";

const OPERATIONS: Record<Redirect["operator"], RedirectOperation> = {
  "<": "read",
  ">": "write",
  ">>": "append",
  "<>": "read_write",
  ">|": "clobber",
  "<&": "duplicate_input",
  ">&": "duplicate_output",
  "&>": "output_and_error",
  "&>>": "append_output_and_error",
  "<<": "here_document",
  "<<-": "here_document",
  "<<<": "here_string",
};

/** `>&word` is a duplication only for a descriptor number or `-`; bash reads `>&file` as `&>file`. */
function operationOf(redirect: Redirect): RedirectOperation {
  if (redirect.operator !== ">&" || redirect.fd !== null) return OPERATIONS[redirect.operator];
  const target = staticWord(redirect.target);
  if (target.ok && !/^(?:[0-9]+-?|-)$/.test(target.value)) return "output_and_error";
  return "duplicate_output";
}

export function inspectRedirect(level: InspectionLevel, redirect: Redirect): InspectedRedirect {
  if (redirect.heredoc !== null || redirect.operator === "<<" || redirect.operator === "<<-")
    throw new ShellInspectionError(
      `here-documents are not supported by inspection: ${quoteSource(textOf(level, redirect))}`,
    );
  if (redirect.fdVariable !== null)
    throw new ShellInspectionError(
      `a descriptor-variable redirection is not supported by inspection: ${quoteSource(textOf(level, redirect))}`,
    );
  inspectWord(level, redirect.target, { splits: false });
  return {
    fd: redirect.fd,
    operation: operationOf(redirect),
    target: textOf(level, redirect.target),
  };
}
