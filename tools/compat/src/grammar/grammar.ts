/**
 * The state one generated script is built with, shared by the per-concept producers
 * (words, continuations, here-documents, substitutions, arithmetic, compound commands,
 * functions, lists). The producers call each other through this object, so no two
 * concept files import each other.
 */
import type { Random } from "./random.js";

export interface Grammar {
  readonly random: Random;
  /** Nesting so far (commands inside commands, substitutions inside words). */
  depth: number;
  /** Here-document bodies (each ending with its delimiter line) waiting for the next newline. */
  pending: string[];
  /** Inside a substitution while an outer here-document waits: no newline tokens here. */
  inline: boolean;
  /** Whether here-documents may be written here (see `compound.ifCommand`). */
  heredocs: boolean;
  /** Inside double quotes (and not in a substitution inside them). */
  doubleQuoted: boolean;
  /** Inside a command or process substitution's body. */
  substitution: boolean;
  /** Here-documents written so far, and how many of them before the current substitution. */
  heredocCount: number;
  heredocsBeforeSubstitution: number;
  /** How many deliberately broken constructs may still be placed (0 or 1). */
  broken: number;
  /** A word in argument position. */
  word(): string;
  /** A compound list: statements with separators between them, none after the last. */
  list(): string;
  /** One command (simple, compound or a function definition). */
  command(): string;
  /** A broken construct bash refuses wherever a command may stand. */
  brokenCommand(): string;
}

/** The deepest nesting a producer goes before it only writes plain words. */
export const MAX_DEPTH = 3;

/** Run `produce` one level deeper. */
export function deeper<T>(grammar: Grammar, produce: () => T): T {
  grammar.depth += 1;
  try {
    return produce();
  } finally {
    grammar.depth -= 1;
  }
}

/** Whether there is room for another level of nesting (less the deeper it already is). */
export function mayNest(grammar: Grammar, probability: number): boolean {
  return grammar.depth < MAX_DEPTH && grammar.random.chance(probability / (1 + 2 * grammar.depth));
}
