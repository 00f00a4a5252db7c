/** What one inspection (the script, or one substitution's body) accumulates while walking. */
import type { Script } from "../parse/ast-command.js";
import type { Span } from "../parse/ast-word.js";
import type { InspectedCommand, InspectedConstruct, ShellInspection } from "./types.js";

export interface InspectionLevel {
  /** The whole input: every AST offset, nested ones included, points into it. */
  readonly input: string;
  /** Substitutions enclosing this level (0 for the script itself). */
  readonly depth: number;
  readonly commands: InspectedCommand[];
  /** With the offset each starts at in `input` (constructs are listed in source order). */
  readonly constructs: { readonly start: number; readonly construct: InspectedConstruct }[];
  /** In first-seen order; each warning once. */
  readonly warnings: Set<string>;
  /** Inspects a substitution's body one level deeper. */
  readonly nested: (script: Script, body: string) => ShellInspection;
}

export function textOf(level: InspectionLevel, span: Span): string {
  return level.input.slice(span.start, span.end);
}
