// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bash, scratch, sh } from "./run.js";

// The interpreter runs loops of `(( ))` and plain assignments on a synchronous fast path
// (src/interpret/commands/synchronous.ts) beside the async walk, kept in step by hand (ADR
// 0028 rule 4). An ERR trap that does nothing (`trap '' ERR`) turns the fast path off
// without changing what the script does, so each script here runs both ways: the two
// must agree exactly (stdout, stderr, status), and both must agree with bash.
const SCRIPTS: readonly string[] = [
  "i=0; while (( i < 300 )); do (( i++ )); done; echo $i $?",
  'for ((i=0, s=0; i<30; i++)); do if (( i % 3 == 0 )); then (( s += i )); elif (( i % 3 == 1 )); then s=$((s - 1)); else x="y"z\'w\'; fi; done; echo "$s $x $i"',
  "for ((i=0; i<3; i++)); do for ((j=0; j<3; j++)); do (( j == 1 )) && continue 2; (( k += 10 * i + j )); done; done; echo $k $i $j",
  "for ((i=0; i<5; i++)); do while (( 1 )); do (( i == 2 )) && break 2; break; done; done; echo $i",
  "i=0; until (( i >= 4 )); do i=$((i + 1)); done; echo $i",
  'i=0\nwhile (( i < 3 )); do\n  (( i++ ))\n  (( 1 / (i - 2) ))\ndone\necho "$i $?"',
  'i=0\nuntil (( i >= 3 )); do\n  i=$((i + 1))\n  x=$((10 / (i - 2)))\ndone\necho "after $i"\necho next',
  "set -e; i=0; while ((i<3)); do ((i++)); done; echo no",
  "set -e; i=0; while ((i<3)); do ((++i)); done; ((i-3)) || echo guarded; echo yes",
  "readonly r=1\ni=0\nwhile (( i < 2 )); do\n  (( i++ ))\n  r=2\ndone\necho after $i",
  "(( 0 )); echo ${PIPESTATUS[@]} $?; (( 7 )); echo ${PIPESTATUS[@]} $?",
  "i=0\nwhile (( i < 2 )); do\n  (( i++ ))\n  (( line[i] = LINENO ))\ndone\necho ${line[@]}",
  'echo a; x=1; echo "[$_]"; y=2 z=$((y * 3)); echo $z "[$_]"',
  "declare -i n; n=5; while (( n < 20 )); do n+=3; done; echo $n",
  "declare -n ref=target; i=0; while ((i<2)); do ((i++)); ref=$((i*10)); done; echo $target",
  'f() { local i=0; while (( i < 4 )); do (( i++ )); done; echo "f $i"; return 3; }; f; echo "$? $i"',
  "set -u; i=0; while (( i < 2 )); do (( i++ )); done; (( j + 1 )); echo unreached",
  "set -a; x=1; bash -c 'echo \"child $x\"'",
];

/**
 * Both paths agree here but differ from bash 5.2, which (1) gives `! cmd` the negated
 * status in `PIPESTATUS` (we keep the command's own) and (2) sets `BASH_COMMAND` for
 * `(( ))` as well as for simple commands. Fidelity work, not a path difference.
 */
const AGREEMENT_ONLY: readonly string[] = [
  "! (( 1 )); echo ${PIPESTATUS[@]} $?; ! (( 0 )); echo ${PIPESTATUS[@]} $?",
  "trap 'echo \"exit: $BASH_COMMAND\"' EXIT; i=0; while (( i < 2 )); do (( i++ )); done",
];

const OFF = "trap '' ERR; ";

describe.skipIf(!existsSync("/bin/bash"))(
  "the synchronous fast path agrees with the async walk",
  () => {
    it.each(SCRIPTS.map((script) => [script]))("%s", async (script) => {
      const cwd = scratch();
      const fast = await sh(script, cwd);
      const slow = await sh(OFF + script, cwd);
      expect(slow).toEqual(fast);
      expect({ stdout: fast.stdout, status: fast.status }).toEqual(bash(script, cwd));
    });

    it.each(AGREEMENT_ONLY.map((script) => [script]))("%s (paths only)", async (script) => {
      const fast = await sh(script);
      expect(await sh(OFF + script)).toEqual(fast);
      expect(fast.status).toBe(0);
    });
  },
);
