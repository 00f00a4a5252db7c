import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkContained } from "../../src/paths/check-contained.js";
import { isPlainPathText } from "../../src/paths/path-text.js";
import { hasDotSegment, removeDotSegments } from "../../src/paths/remove-dot-segments.js";

const posix = process.platform !== "win32";

describe.runIf(posix)("removeDotSegments", () => {
  it.each([
    ["/srv/data/link/../x", "/srv/data/x"],
    ["/srv/./data//x/", "/srv/data/x"],
    ["/..", "/"],
    ["/a/b/../../..", "/"],
    ["data/../../x", "../x"],
    ["/", "/"],
    ["", ""],
  ])("%j becomes %j", (input, expected) => {
    expect(removeDotSegments(input)).toBe(expected);
  });

  it("is idempotent and leaves no dot segment in an absolute path", () => {
    const name = fc.constantFrom("a", "b", ".", "..", "", "c d", "é");
    fc.assert(
      fc.property(fc.array(name, { maxLength: 12 }), (names) => {
        const once = removeDotSegments(`/${names.join("/")}`);
        expect(removeDotSegments(once)).toBe(once);
        expect(hasDotSegment(once)).toBe(false);
      }),
    );
  });
});

describe.runIf(posix)("checkContained", () => {
  it("contains by whole components, never by string prefix", () => {
    expect(checkContained("/srv/data", "/srv/data")).toBe(true);
    expect(checkContained("/srv/data/x", "/srv/data")).toBe(true);
    expect(checkContained("/srv/data/x", "/srv/data/")).toBe(true);
    expect(checkContained("/srv/data-secret/x", "/srv/data")).toBe(false);
    expect(checkContained("/srv/dat", "/srv/data")).toBe(false);
    expect(checkContained("/anything", "/")).toBe(true);
  });

  it("fails closed on dot segments and relative paths", () => {
    expect(checkContained("/srv/data/../secret", "/srv/data")).toBe(false);
    expect(checkContained("/srv/data/./x", "/srv/data")).toBe(false);
    expect(checkContained("srv/data/x", "srv/data")).toBe(false);
  });

  it("never contains a sibling that shares a prefix", () => {
    const name = fc.stringMatching(/^[a-z]{1,6}$/);
    fc.assert(
      fc.property(name, name, (base, suffix) => {
        expect(checkContained(`/r/${base}${suffix}/x`, `/r/${base}`)).toBe(false);
      }),
    );
  });
});

describe("isPlainPathText", () => {
  it.each(["", "a\u0000b", "a\u0001.txt", "a\nb", "a\u007fb", "a\u009bb"])("refuses %j", (text) => {
    expect(isPlainPathText(text)).toBe(false);
  });

  it("accepts spaces and non-ASCII names", () => {
    expect(isPlainPathText("/a b/café/日本")).toBe(true);
  });
});
