/**
 * Bash scripts generated from the grammar, reproducibly: script `index` of seed `seed`
 * is always the same text. A share of them hold one broken construct (or end inside an
 * unterminated quote), so both verdicts of the parser are exercised.
 */
import { brokenCommand, unterminated } from "./broken.js";
import { command, list } from "./commands.js";
import { newline } from "./continuations.js";
import type { Grammar } from "./grammar.js";
import { Random } from "./random.js";
import { word } from "./words.js";

export interface GeneratedScript {
  readonly seed: number;
  readonly index: number;
  readonly text: string;
  /** Built with a broken construct (bash is still the judge of what it means). */
  readonly broken: boolean;
}

function grammarFor(random: Random, broken: boolean): Grammar {
  const grammar: Grammar = {
    random,
    depth: 0,
    pending: [],
    inline: false,
    substitution: false,
    heredocCount: 0,
    heredocsBeforeSubstitution: 0,
    doubleQuoted: false,
    heredocs: true,
    broken: broken ? 1 : 0,
    word: () => word(grammar),
    list: () => list(grammar),
    command: () => command(grammar),
    brokenCommand: () => brokenCommand(grammar),
  };
  return grammar;
}

/** Script `index` of the run seeded with `seed`. */
export function generateScript(seed: number, index: number, brokenShare = 0.25): GeneratedScript {
  const random = new Random((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const broken = random.chance(brokenShare);
  const grammar = grammarFor(random, broken);
  let text = list(grammar);
  const placeAtEnd = grammar.broken > 0;
  grammar.broken = 0;
  const tail = placeAtEnd && random.chance(0.3) ? unterminated(grammar) : "";
  if (placeAtEnd && tail === "") text += `; ${brokenCommand(grammar)}`;
  if (grammar.pending.length > 0) text += newline(grammar);
  text += tail;
  return { seed, index, text, broken };
}

export function generateScripts(
  seed: number,
  count: number,
  brokenShare = 0.25,
): GeneratedScript[] {
  return Array.from({ length: count }, (_, index) => generateScript(seed, index, brokenShare));
}
