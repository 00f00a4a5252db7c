import { describe, expect, it } from "vitest";
import { capForModel, cappedText } from "../src/model-output.js";

describe("capForModel", () => {
  it("keeps a text within the cap whole", () => {
    expect(capForModel("short\n", 100)).toEqual({ head: "short\n", tail: "", cutBytes: 0 });
  });

  it("keeps the head and the tail, at most the cap in all, and counts what was cut", () => {
    const text = `${"h".repeat(50)}${"m".repeat(1000)}${"t".repeat(50)}`;
    const capped = capForModel(text, 100);
    expect(capped.head).toBe("h".repeat(50));
    expect(capped.tail).toBe("t".repeat(50));
    expect(capped.cutBytes).toBe(1000);
    expect(cappedText("stdout", capped)).toContain("[... 1000 bytes of stdout cut here");
  });

  it("never cuts inside a code point", () => {
    const text = "é".repeat(200); // two bytes each
    const capped = capForModel(text, 101);
    expect(capped.head).toBe("é".repeat(25));
    expect(capped.tail).toBe("é".repeat(25));
    expect(Buffer.byteLength(capped.head) + Buffer.byteLength(capped.tail) + capped.cutBytes).toBe(
      400,
    );
  });
});
