/**
 * `bridle inspect '<cmd>'`: the script's `shell_inspection` (reference §7) — what it
 * would run, read from its text alone; nothing is expanded or run. A readable summary by
 * default, the raw JSON with `--json`; a script that cannot be projected exactly fails
 * closed with the reason.
 */
import {
  type InspectedCommand,
  type InspectedConstruct,
  inspectShell,
  type ShellInspection,
  ShellInspectionError,
} from "agent-bridle";
import { renderArgv } from "./static-word.js";

export type InspectOutcome =
  | { readonly ok: true; readonly inspection: ShellInspection }
  | { readonly ok: false; readonly error: string };

/** The inspection of `source`, or the reason it failed closed. */
export function inspectCommandLine(source: string): InspectOutcome {
  try {
    return { ok: true, inspection: inspectShell(source) };
  } catch (error) {
    if (ShellInspectionError.isInstance(error)) return { ok: false, error: error.message };
    throw error;
  }
}

const CONSTRUCT_NAMES: Record<InspectedConstruct["kind"], string> = {
  command_substitution: "command substitution",
  backquote_substitution: "command substitution (backquotes)",
  arithmetic_expansion: "arithmetic expansion",
};

function renderCommand(command: InspectedCommand, indent: string, lines: string[]): void {
  lines.push(
    `${indent}${command.program === null ? "(no program: assignments only)" : command.program}: ${command.source}`,
  );
  lines.push(`${indent}  argv: ${renderArgv(command.argv)}`);
  for (const redirect of command.redirects) {
    lines.push(
      `${indent}  redirect: ${redirect.fd === null ? "" : `fd ${redirect.fd} `}${redirect.operation.replaceAll("_", " ")} ${redirect.target}`,
    );
  }
  for (const exec of command.descendant_execs) {
    lines.push(`${indent}  find runs ${exec.program}: ${exec.source}`);
  }
}

function renderInspection(inspection: ShellInspection, indent: string, lines: string[]): void {
  lines.push(`${indent}commands (${inspection.commands.length}):`);
  for (const command of inspection.commands) renderCommand(command, `${indent}  `, lines);
  if (inspection.constructs.length > 0) {
    lines.push(`${indent}constructs (${inspection.constructs.length}):`);
    for (const construct of inspection.constructs) {
      lines.push(
        `${indent}  ${CONSTRUCT_NAMES[construct.kind]}${construct.quoted ? ", in double quotes" : ""}: ${construct.source}`,
      );
      if (construct.inspection !== null)
        renderInspection(construct.inspection, `${indent}    `, lines);
    }
  }
  if (inspection.warnings.length > 0) {
    lines.push(`${indent}warnings:`);
    for (const warning of inspection.warnings) lines.push(`${indent}  - ${warning}`);
  }
}

/** The readable summary `bridle inspect` prints. */
export function renderInspectionSummary(inspection: ShellInspection): string {
  const lines = [
    `inspection (schema ${inspection.schema_version}; parsed only, nothing ran): ${inspection.source}`,
  ];
  renderInspection(inspection, "", lines);
  return `${lines.join("\n")}\n`;
}
