// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import { LABELS } from "../../src/index.js";
import { refuse, summary } from "./helpers/parse-helpers.js";

const DYNAMIC = "SHELL_DYNAMIC_CONSTRUCT";
const UNSUPPORTED = "SHELL_UNSUPPORTED_CONSTRUCT";
const PARSE = "SHELL_PARSE_ERROR";
const MALFORMED = "malformed input";

type Row = [source: string, code: string, target: string, offset: number, end: number];

/** Reference §3.3, dynamic rows (and case 29). */
const dynamicRows: Row[] = [
  ["echo $(id)", DYNAMIC, LABELS.commandSubstitution, 5, 7],
  ['echo "$(id)"', DYNAMIC, LABELS.commandSubstitution, 6, 8],
  ["echo $((1 + 2))", DYNAMIC, LABELS.arithmeticExpansion, 5, 8],
  ['echo "$((1+2))"', DYNAMIC, LABELS.arithmeticExpansion, 6, 9],
  ["echo `id`", DYNAMIC, LABELS.backticks, 5, 6],
  ['echo "a`id`"', DYNAMIC, LABELS.backticks, 7, 8],
  ["(echo hi)", DYNAMIC, LABELS.subshell, 0, 1],
  ["echo a)", DYNAMIC, LABELS.subshell, 6, 7],
  ["echo a(b", DYNAMIC, LABELS.subshell, 6, 7],
  ["cat <(id)", DYNAMIC, LABELS.processSubstitution, 4, 6],
  ["echo x > >(id)", DYNAMIC, LABELS.processSubstitution, 9, 11],
  ["tee >(id)", DYNAMIC, LABELS.processSubstitution, 4, 6],
  ["echo $\\\n(id)", DYNAMIC, LABELS.commandSubstitution, 5, 9],
];

/** Reference §3.3, unsupported rows (and cases 27, 28, 31). */
const unsupportedRows: Row[] = [
  ["a &", UNSUPPORTED, LABELS.background, 2, 3],
  ["a & b", UNSUPPORTED, LABELS.background, 2, 3],
  ["a &> f", UNSUPPORTED, LABELS.background, 2, 4],
  ["a |& b", UNSUPPORTED, LABELS.background, 2, 4],
  ["cat <<EOF", UNSUPPORTED, LABELS.heredoc, 4, 6],
  ["cat <<< hi", UNSUPPORTED, LABELS.heredoc, 4, 6],
  ["cat 0<<EOF", UNSUPPORTED, LABELS.heredoc, 4, 7],
  ["echo >&2", UNSUPPORTED, LABELS.outputDuplication, 5, 7],
  ["echo >>&2", UNSUPPORTED, LABELS.outputDuplication, 5, 8],
  ["cat <&0", UNSUPPORTED, LABELS.inputDuplication, 4, 6],
  ["cmd 2<&1", UNSUPPORTED, LABELS.inputDuplication, 4, 7],
  ["cat 3< f", UNSUPPORTED, LABELS.fdInput, 4, 6],
  ["cat 1< f", UNSUPPORTED, LABELS.fdInput, 4, 6],
  ["cmd 1>&2", UNSUPPORTED, LABELS.fdDuplication, 4, 7],
  ["cmd 3>&1", UNSUPPORTED, LABELS.fdDuplication, 4, 7],
  ["cmd 2>&12", UNSUPPORTED, LABELS.fdDuplication, 4, 7],
  ["cmd 2>&-", UNSUPPORTED, LABELS.fdDuplication, 4, 7],
  ["cmd 2>& 1", UNSUPPORTED, LABELS.fdDuplication, 4, 7],
  ["cmd 3> f", UNSUPPORTED, LABELS.fdNumber, 4, 6],
  ["cmd 0> f", UNSUPPORTED, LABELS.fdNumber, 4, 6],
  ["cmd 01> f", UNSUPPORTED, LABELS.fdNumber, 4, 7],
  ["cmd 3>> f", UNSUPPORTED, LABELS.fdNumber, 4, 7],
  ["echo > *.log", UNSUPPORTED, LABELS.globTarget, 7, 12],
  ["echo < a?", UNSUPPORTED, LABELS.globTarget, 7, 9],
  ["echo 2> [ab]", UNSUPPORTED, LABELS.globTarget, 8, 12],
  ["echo $1", UNSUPPORTED, LABELS.bareDollar, 5, 7],
  ["echo $", UNSUPPORTED, LABELS.bareDollar, 5, 6],
  ["echo $?", UNSUPPORTED, LABELS.bareDollar, 5, 7],
  ["echo $$", UNSUPPORTED, LABELS.bareDollar, 5, 7],
  ["echo $@", UNSUPPORTED, LABELS.bareDollar, 5, 7],
  ["echo a$ b", UNSUPPORTED, LABELS.bareDollar, 6, 7],
  ['echo "$"', UNSUPPORTED, LABELS.bareDollar, 6, 7],
  ["echo $'a\\nb'", UNSUPPORTED, LABELS.bareDollar, 5, 7],
  ['echo $"hi"', UNSUPPORTED, LABELS.bareDollar, 5, 7],
  ["echo ${1}", UNSUPPORTED, LABELS.variableName, 5, 8],
  ["echo ${X:-d}", UNSUPPORTED, LABELS.variableName, 5, 9],
  ["echo ${#X}", UNSUPPORTED, LABELS.variableName, 5, 8],
  ["echo ${}", UNSUPPORTED, LABELS.variableName, 5, 8],
  ["echo ${ X}", UNSUPPORTED, LABELS.variableName, 5, 8],
];

/** Reference §3.3, malformed rows (and case 31). */
const malformedRows: Row[] = [
  ["", PARSE, MALFORMED, 0, 0],
  ["  \n # only a comment\n", PARSE, MALFORMED, 0, 21],
  ['""', PARSE, MALFORMED, 0, 2],
  ["a &&", PARSE, MALFORMED, 4, 4],
  ["a ||", PARSE, MALFORMED, 4, 4],
  ["a && \n", PARSE, MALFORMED, 6, 6],
  ["| x", PARSE, MALFORMED, 0, 1],
  ["a | | b", PARSE, MALFORMED, 4, 5],
  ["a |", PARSE, MALFORMED, 3, 3],
  ["; a", PARSE, MALFORMED, 0, 1],
  ["a ; ; b", PARSE, MALFORMED, 4, 5],
  ["a\n;", PARSE, MALFORMED, 2, 3],
  ["a && ; b", PARSE, MALFORMED, 5, 6],
  ["a\n&& b", PARSE, MALFORMED, 2, 4],
  ["> f", PARSE, MALFORMED, 0, 3],
  ["> f | b", PARSE, MALFORMED, 0, 3],
  ["echo >", PARSE, MALFORMED, 5, 6],
  ["echo > ; b", PARSE, MALFORMED, 5, 6],
  ["echo >#x", PARSE, MALFORMED, 5, 6],
  ["echo 2>", PARSE, MALFORMED, 5, 7],
  ["echo > ''", PARSE, MALFORMED, 7, 9],
  ['echo > ""', PARSE, MALFORMED, 7, 9],
  ["echo 'abc", PARSE, MALFORMED, 5, 9],
  ['echo "abc', PARSE, MALFORMED, 5, 9],
  ["echo ${HOME", PARSE, MALFORMED, 5, 11],
  ["echo a\\", PARSE, MALFORMED, 6, 7],
  ["a;;", PARSE, MALFORMED, 1, 3],
];

describe.each([
  ["dynamic", dynamicRows],
  ["unsupported", unsupportedRows],
  ["malformed", malformedRows],
])("reference §3.3 %s rows", (_kind, rows) => {
  it.each(rows)("%j", (source, code, target, offset, end) => {
    const refusal = refuse(source);
    expect(summary(refusal)).toEqual([code, target, offset, end]);
    expect(refusal.dynamic).toBe(code === DYNAMIC);
  });
});

describe("reason text", () => {
  it("dynamic refusals say refused by design; malformed ones say malformed command", () => {
    expect(refuse("echo $(id)").reason).toMatch(/^refused by design: /);
    expect(refuse("a &").reason).toMatch(/^not supported by the confined shell engine: /);
    expect(refuse("a &&").reason).toMatch(/^malformed command: /);
  });
});
