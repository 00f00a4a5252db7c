// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell source, where ${NAME} is literal input.
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { type Attack, cmds } from "../helpers/attack.js";
import type { Fixture } from "../helpers/fixture.js";

// Catalogue §6 (A89–A92): every open and every spawn inside the interpreter is gated.
// The safe engine refuses the bash-only forms in-band; the host engine holds by the kernel.

const descriptors = new WeakMap<Fixture, number>();

export const INTERPRETER_ATTACKS: readonly Attack[] = [
  {
    id: "A90",
    title: "every file open inside the interpreter",
    setup: (f) => writeFileSync(join(f.O, "s.sh"), `touch ${f.A}/PWNED90\necho CANARY-OUT\n`),
    steps: () =>
      cmds(
        'x=$(<$O/secret.txt); echo "$x"',
        "source $O/s.sh",
        'read l < $O/secret.txt; echo "$l"',
        'mapfile m < $O/secret.txt; echo "${m[*]}"',
        "exec 3<$O/secret.txt; cat <&3",
        "history -r $O/secret.txt; history",
        "echo x > $O/y",
        "exec 4>>$O/y; echo x >&4",
        "[[ -e $O/secret.txt ]] && echo yes",
        "[[ -e $O/absent.txt ]] && echo yes",
        "cd $O && cat secret.txt",
        "enable -f $A/x.so evil",
      ),
    check: (outcomes, _f, engine) => {
      if (engine === "bash") {
        // the existence probe answers alike for a path that exists and one that does not
        expect(outcomes[8]?.response.stdout).toBe(outcomes[9]?.response.stdout);
        for (const index of [0, 1, 2, 3, 4, 6, 7, 10]) {
          expect(outcomes[index]?.response.denied, outcomes[index]?.call.cmd).toBe(true);
        }
      }
      if (engine === "safe") {
        for (const outcome of outcomes)
          expect(outcome.response.denied, outcome.call.cmd).toBe(true);
      }
    },
  },
  {
    id: "A92",
    title: "the inside of a granted program: find -exec, awk system(), an inherited descriptor",
    exec: ["find", "awk", "mawk", "gawk"],
    setup: (f) => {
      descriptors.set(f, openSync(join(f.O, "secret.txt"), "r"));
    },
    teardown: (f) => closeSync(descriptors.get(f) ?? -1),
    steps: (f) =>
      cmds(
        "find $A -maxdepth 0 -exec touch $A/PWNED92 \\;",
        "awk 'BEGIN{system(\"touch $A/PWNED92\")}'",
        "find $O -name secret.txt -exec cat {} \\;",
        `cat /dev/fd/${descriptors.get(f)}`,
        `awk '{print}' /dev/fd/${descriptors.get(f)}`,
      ),
  },
];
