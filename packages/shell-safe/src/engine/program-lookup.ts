import { isBareProgram, resolveOnSearchPath } from "@agent-bridle/core";
import type { Script } from "../parse/ast.js";
import { literalValue } from "../parse/word-value.js";

/** Resolves bare program names on one search path, each name once per call. */
export type ProgramLookup = (name: string) => Promise<string | undefined>;

/**
 * A per-call lookup that starts resolving the script's literal bare program names at
 * once, so the lookups overlap the working-directory judgement instead of following it.
 * Admission still makes every decision; this only saves waiting.
 */
export function programLookup(searchPath: string, script: Script | undefined): ProgramLookup {
  const found = new Map<string, Promise<string | undefined>>();
  const lookup: ProgramLookup = (name) => {
    let pending = found.get(name);
    if (pending === undefined) {
      pending = resolveOnSearchPath(name, searchPath);
      found.set(name, pending);
    }
    return pending;
  };
  for (const list of script?.lists ?? []) {
    for (const pipeline of [list.head, ...list.tail.map((link) => link.pipeline)]) {
      for (const command of pipeline.stages) {
        const word = command.words[0];
        const name = word === undefined ? null : literalValue(word);
        if (name !== null && name !== "" && isBareProgram(name)) void lookup(name);
      }
    }
  }
  return lookup;
}
