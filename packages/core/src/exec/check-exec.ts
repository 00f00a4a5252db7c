import { basename, isAbsolute } from "node:path";
import type { Scope } from "../caveats/scope.js";
import { createDenial, type Denial } from "../envelope/denial.js";
import { isSameFile } from "../paths/same-file.js";
import { isBareProgram, resolveOnSearchPath } from "./resolve-program.js";
import { TRUSTED_PATH } from "./trusted-path.js";

/** A program as the caller spelled it and, when the engine resolved it, where it resolved. */
export interface ProgramIdentity {
  readonly spelled: string;
  readonly resolved?: string | undefined;
}

export type ExecDecision =
  | { readonly ok: true; readonly value: { readonly resolved: string | undefined } }
  | { readonly ok: false; readonly denial: Denial };

function deny(spelled: string): ExecDecision {
  return {
    ok: false,
    denial: createDenial(
      "exec",
      spelled,
      "EXEC_NOT_GRANTED",
      `exec of ${JSON.stringify(spelled)} is not within the granted authority`,
    ),
  };
}

async function checkBare(entries: readonly string[], program: ProgramIdentity, searchPath: string) {
  if (!entries.includes(program.spelled)) return deny(program.spelled);
  const trusted = await resolveOnSearchPath(program.spelled, searchPath);
  // An engine that resolved the name elsewhere (a caller's PATH) is not running the granted program.
  if (
    program.resolved !== undefined &&
    (trusted === undefined || !(await isSameFile(program.resolved, trusted)))
  ) {
    return deny(program.spelled);
  }
  return { ok: true, value: { resolved: trusted } } as const;
}

async function checkAbsolute(entries: readonly string[], spelled: string, searchPath: string) {
  for (const entry of entries) {
    if (isAbsolute(entry) && (await isSameFile(spelled, entry))) {
      return { ok: true, value: { resolved: spelled } } as const;
    }
  }
  const name = basename(spelled);
  if (entries.includes(name)) {
    const trusted = await resolveOnSearchPath(name, searchPath);
    if (trusted !== undefined && (await isSameFile(spelled, trusted))) {
      return { ok: true, value: { resolved: spelled } } as const;
    }
  }
  return deny(spelled);
}

/**
 * The exec identity check of spec §3. A bare spelling matches a bare grant entry and is
 * resolved only on the trusted `PATH`; a relative spelling with a separator never
 * matches; an absolute spelling is admitted when it is the same file as an absolute
 * entry, or when its basename is a bare entry and it is the same file as that entry's
 * trusted-`PATH` resolution (the basename rule: a multi-call binary under another name
 * is not admitted). `searchPath` exists for tests; engines use the default.
 */
export async function checkExec(
  scope: Scope<string>,
  program: ProgramIdentity,
  options: { readonly searchPath?: string } = {},
): Promise<ExecDecision> {
  const searchPath = options.searchPath ?? TRUSTED_PATH;
  if (scope === "all") {
    const resolved =
      program.resolved ??
      (isBareProgram(program.spelled)
        ? await resolveOnSearchPath(program.spelled, searchPath)
        : program.spelled);
    return { ok: true, value: { resolved } };
  }
  if (program.spelled === "") return deny(program.spelled);
  if (isBareProgram(program.spelled)) return checkBare(scope.only, program, searchPath);
  if (isAbsolute(program.spelled)) return checkAbsolute(scope.only, program.spelled, searchPath);
  return deny(program.spelled);
}
