import { readFile } from "node:fs/promises";
import { findModuleReferences } from "./module-references.js";
import { findProcessEnvReads } from "./process-env-reads.js";
import { bashEnvViolation, checkBashModule, isBashSource } from "./rules/bash-purity.js";
import { checkCoreModule, coreEnvViolation, isCoreSource } from "./rules/core-purity.js";
import type { FileContext } from "./rules/file-context.js";
import { checkOneBashLanguage } from "./rules/one-bash-language.js";
import { checkRelativeEscape } from "./rules/relative-escape.js";
import { checkWorkspaceImport } from "./rules/workspace-import.js";
import { tokenize } from "./tokenize.js";
import type { Violation } from "./violation.js";

export interface FileResult {
  readonly violations: readonly Violation[];
  /** How many module specifiers the file holds. */
  readonly references: number;
}

/** Every import-level rule, applied to one source file. */
export async function checkFile(context: FileContext): Promise<FileResult> {
  const tokens = tokenize(await readFile(context.file, "utf8"));
  const references = findModuleReferences(tokens);
  const violations: Violation[] = [];
  const language = checkOneBashLanguage(context);
  if (language !== undefined) violations.push(language);
  for (const reference of references) {
    violations.push(...checkWorkspaceImport(context, reference));
    for (const violation of [
      checkRelativeEscape(context, reference),
      checkCoreModule(context, reference),
      checkBashModule(context, reference),
    ]) {
      if (violation !== undefined) violations.push(violation);
    }
  }
  if (isCoreSource(context)) {
    for (const line of findProcessEnvReads(tokens)) {
      violations.push(coreEnvViolation(context, line));
    }
  }
  if (isBashSource(context)) {
    for (const line of findProcessEnvReads(tokens)) {
      violations.push(bashEnvViolation(context, line));
    }
  }
  return { violations, references: references.length };
}
