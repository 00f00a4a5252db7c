// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parseBash } from "@agent-bridle/bash";
import { corpusScripts, loadCorpus } from "@agent-bridle-tools/compat";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseScript } from "../../src/parse/parse-script.js";
import { checkSubset } from "../../src/subset/check-subset.js";
import { acceptedScript } from "../parse/helpers/script-generator.js";

/**
 * ADR 0022 point 5: the allow-list walk over `@agent-bridle/bash`'s AST (`checkSubset`)
 * must decide every script exactly as the subset's own parser (`parseScript`) does before
 * the old parser may go: the same `Script` (every node and span) for an accepted script,
 * the same code, target and span for a refused one.
 *
 * One deliberate difference: for a script bash itself cannot parse, both must refuse, but
 * the walk may name bash's syntax error (or another refused construct) where the old
 * parser named a construct inside the part bash cannot parse (an unclosed `(` or
 * backquote, a keyword in a backquote body). Such a script never runs either way; the
 * refusal tests of `test/parse/` pin the reason for every case they list.
 */
function deliberate(source: string, old: Decision, walked: Decision): boolean {
  return !parseBash(source).ok && !old.ok && !walked.ok;
}

const corpus = new URL("../../../../tools/compat/corpus/cases", import.meta.url).pathname;

/** Every string literal of shell-safe's own tests that looks like a script (rough, on purpose). */
function testScripts(): string[] {
  const root = new URL("../", import.meta.url).pathname;
  const scripts: string[] = [];
  for (const folder of ["parse", "engine"]) {
    for (const name of readdirSync(join(root, folder))) {
      if (!name.endsWith(".ts")) continue;
      const text = readFileSync(join(root, folder, name), "utf8");
      for (const match of text.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)) {
        try {
          scripts.push(JSON.parse(`"${match[1]}"`) as string);
        } catch {
          // not a JSON-compatible literal: skipped
        }
      }
    }
  }
  return scripts;
}

type Decision = ReturnType<typeof decision>;

function decision(result: ReturnType<typeof parseScript>) {
  if (result.ok) return { ok: true, script: result.script };
  const { code, target, offset, end, dynamic } = result.refusal;
  return { ok: false, code, target, offset, end, dynamic };
}

function disagreements(scripts: readonly string[]): string[] {
  const found: string[] = [];
  for (const source of new Set(scripts)) {
    const old = decision(parseScript(source));
    const walked = decision(checkSubset(source));
    if (!isDeepStrictEqual(old, walked) && !deliberate(source, old, walked)) {
      found.push(
        `${JSON.stringify(source)}\n old: ${JSON.stringify(old).slice(0, 300)}\n new: ${JSON.stringify(walked).slice(0, 300)}`,
      );
    }
  }
  return found;
}

describe("the subset walk over bash's AST decides as the subset parser does", () => {
  it("on every script of the bash-compat corpus", () => {
    const scripts = corpusScripts(loadCorpus(corpus)).map((item) => item.script);
    expect(scripts.length).toBeGreaterThan(1000);
    expect(disagreements(scripts)).toEqual([]);
  });

  it("on every script-like string literal of shell-safe's tests", () => {
    const scripts = testScripts();
    expect(scripts.length).toBeGreaterThan(500);
    expect(disagreements(scripts)).toEqual([]);
  });

  it("on generated scripts of the accepted subset (fixed seeds, incl. those that found bugs)", () => {
    const scripts = [925078229, 991943276, 991962771, 992100902, 1].flatMap((seed) =>
      fc.sample(acceptedScript, { numRuns: 2600, seed }),
    );
    expect(disagreements(scripts)).toEqual([]);
  });
});
