import { describe, expect, it } from "vitest";
import { lineEnds } from "../src/read/newlines.js";
import {
  classifyText,
  decodeText,
  detectBom,
  isUtf8Slice,
  looksBinary,
} from "../src/read/text-encoding.js";

describe("text encoding detection", () => {
  it("detects byte order marks", () => {
    expect(detectBom(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toEqual({
      encoding: "utf-8",
      length: 3,
    });
    expect(detectBom(Buffer.from([0xff, 0xfe, 0x41, 0]))).toEqual({
      encoding: "utf-16le",
      length: 2,
    });
    expect(detectBom(Buffer.from([0xfe, 0xff, 0, 0x41]))).toEqual({
      encoding: "utf-16be",
      length: 2,
    });
    expect(detectBom(Buffer.from("plain"))).toBeUndefined();
    expect(detectBom(Buffer.alloc(0))).toBeUndefined();
  });

  it("calls bytes binary on a NUL or many control characters, not on ordinary text controls", () => {
    expect(looksBinary(Buffer.from("a\u0000b"))).toBe(true);
    expect(looksBinary(Buffer.from("\u0001\u0002\u0003\u0004abc"))).toBe(true);
    expect(looksBinary(Buffer.from("tab\tnewline\r\nform\fescape\u001b[0m"))).toBe(false);
    expect(looksBinary(Buffer.alloc(0))).toBe(false);
  });

  it("classifies UTF-8, Latin-1 and binary; a slice may cut characters at its edges", () => {
    expect(classifyText(Buffer.from("héllo"), undefined, false)).toBe("utf-8");
    expect(classifyText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), undefined, false)).toBe("latin1");
    expect(classifyText(Buffer.from([1, 2, 3, 0]), undefined, false)).toBe("binary");
    const euro = Buffer.from("€€€");
    expect(isUtf8Slice(euro.subarray(1, 8))).toBe(true);
    expect(isUtf8Slice(Buffer.from([0x41, 0xc3, 0x28, 0x41]))).toBe(false);
    expect(classifyText(euro.subarray(2, 7), undefined, true)).toBe("utf-8");
  });

  it("decodes each encoding, ASCII fast path included", () => {
    expect(decodeText(Buffer.from("plain ascii"), "utf-8")).toBe("plain ascii");
    expect(decodeText(Buffer.from("ünïcode"), "utf-8")).toBe("ünïcode");
    expect(decodeText(Buffer.from([0xe9]), "latin1")).toBe("é");
    expect(decodeText(Buffer.from("hi", "utf16le"), "utf-16le")).toBe("hi");
    expect(decodeText(Buffer.from([0, 0x68, 0, 0x69, 0]), "utf-16be")).toBe("hi");
  });

  it("finds newlines on code units for UTF-16 and bytes otherwise", () => {
    expect([...lineEnds(Buffer.from("a\nb\n"), "utf-8")]).toEqual([2, 4]);
    expect([...lineEnds(Buffer.from("a\u0a00\nb", "utf16le"), "utf-16le")]).toEqual([6]);
    const be = Buffer.from("a\nb", "utf16le").swap16();
    expect([...lineEnds(be, "utf-16be")]).toEqual([4]);
  });
});
