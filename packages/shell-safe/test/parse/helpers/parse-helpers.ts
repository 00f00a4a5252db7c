import { expect } from "vitest";
import type { Command, Script, ShellRefusal, Word } from "../../../src/index.js";
import { parseScript } from "../../../src/index.js";

export function accept(source: string): Script {
  const result = parseScript(source);
  if (!result.ok) {
    expect.fail(
      `expected ${JSON.stringify(source)} to parse, got ${JSON.stringify(result.refusal)}`,
    );
  }
  return result.script;
}

export function refuse(source: string): ShellRefusal {
  const result = parseScript(source);
  if (result.ok) expect.fail(`expected ${JSON.stringify(source)} to be refused`);
  return result.refusal;
}

/** A word's meaning as text: expansions shown as ⟨$NAME⟩, ⟨~⟩ and ⟨*⟩. */
export function render(word: Word): string {
  let text = "";
  for (const part of word.parts) {
    switch (part.type) {
      case "variable":
        text += `⟨$${part.name}⟩`;
        break;
      case "tilde":
        text += "⟨~⟩";
        break;
      case "glob":
        text += `⟨${part.value}⟩`;
        break;
      case "double-quoted":
        for (const inner of part.parts) {
          text += inner.type === "variable" ? `⟨"$${inner.name}"⟩` : inner.value;
        }
        break;
      default:
        text += part.value;
    }
  }
  return text;
}

export function commands(script: Script): Command[] {
  return script.lists.flatMap((list) => [
    ...list.head.stages,
    ...list.tail.flatMap((link) => link.pipeline.stages),
  ]);
}

/** Every command's words, rendered. */
export function argvs(source: string): string[][] {
  return commands(accept(source)).map((command) => command.words.map(render));
}

/** The refusal's code, target and span, for compact table assertions. */
export function summary(refusal: ShellRefusal): [string, string, number, number] {
  return [refusal.code, refusal.target, refusal.offset, refusal.end];
}
