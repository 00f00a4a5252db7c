import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { inspectShell } from "../../src/index.js";

const tempDir = useTempDirs("inspect-");

describe("inspectShell never runs anything (case 97)", () => {
  it("leaves no marker for substitutions, arithmetic, find actions or redirections", () => {
    const dir = tempDir();
    const marker = (name: string) => join(dir, name);
    const scripts = [
      `echo $(touch ${marker("a")})`,
      `echo "\`touch ${marker("b")}\`"`,
      `ls $(find . -exec touch ${marker("c")} \\;)`,
      `echo hi >${marker("d")}`,
      `echo hi >>$(touch ${marker("e")}; echo ${marker("f")})`,
      `for x in $(touch ${marker("g")}); do touch ${marker("h")}; done`,
      `X=$(touch ${marker("i")}) true`,
      `touch ${marker("j")} && mkdir ${marker("k")}`,
    ];
    for (const script of scripts) expect(inspectShell(script).source).toBe(script);
    // and scripts that fail closed do not run either
    for (const script of [
      `eval 'touch ${marker("l")}'`,
      `echo \${x:-$(touch ${marker("m")})}`,
      `cat <(touch ${marker("n")})`,
      `echo $(( $(touch ${marker("o")}) ))`,
    ]) {
      expect(() => inspectShell(script)).toThrow();
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(marker("a"))).toBe(false);
  });
});
