import { describe, expect, it } from "vitest";
import { ArithmeticError, evaluateArithmetic } from "../../src/index.js";

function scope(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    get: (name: string) => values.get(name),
    set: (name: string, _index: string | null, value: string) => {
      values.set(name, value);
    },
  };
}

describe("evaluateArithmetic", () => {
  it("follows bash precedence and associativity", () => {
    expect(evaluateArithmetic("1 + 2 * 3", scope())).toBe(7n);
    expect(evaluateArithmetic("2 ** 3 ** 2", scope())).toBe(512n);
    expect(evaluateArithmetic("-7 / 2", scope())).toBe(-3n);
    expect(evaluateArithmetic("-7 % 3", scope())).toBe(-1n);
    expect(evaluateArithmetic("1 < 2 && 3 > 4 || !0", scope())).toBe(1n);
    expect(evaluateArithmetic("0 ? 1 : 2 ? 3 : 4", scope())).toBe(3n);
    expect(evaluateArithmetic("0x1f + 010 + 2#101", scope())).toBe(31n + 8n + 5n);
  });

  it("wraps at 64 bits", () => {
    expect(evaluateArithmetic("9223372036854775807 + 1", scope())).toBe(-9223372036854775808n);
  });

  it("assigns, increments and reads variables recursively", () => {
    const vars = scope({ a: "b + 1", b: "2" });
    expect(evaluateArithmetic("a", vars)).toBe(3n);
    expect(evaluateArithmetic("x = 5, x += 2, x++", vars)).toBe(7n);
    expect(vars.values.get("x")).toBe("8");
    expect(evaluateArithmetic("--x", vars)).toBe(7n);
  });

  it("short-circuits", () => {
    const vars = scope();
    expect(evaluateArithmetic("0 && (y = 1)", vars)).toBe(0n);
    expect(vars.values.has("y")).toBe(false);
  });

  it("reports division by zero and syntax errors with bash's wording", () => {
    expect(() => evaluateArithmetic("1 / 0", scope())).toThrow(ArithmeticError);
    expect(() => evaluateArithmetic("1 / 0", scope())).toThrow("division by 0");
    expect(() => evaluateArithmetic("1 +", scope())).toThrow("operand expected");
  });
});
