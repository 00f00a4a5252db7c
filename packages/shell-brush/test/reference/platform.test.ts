import { readdirSync } from "node:fs";
import { join } from "node:path";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { brush, recordingObserver, settle } from "./helpers.js";

const tempDir = useTempDirs("brush-ref-platform-");
const realPlatform = Object.getOwnPropertyDescriptor(process, "platform") as PropertyDescriptor;

afterEach(() => {
  Object.defineProperty(process, "platform", realPlatform);
});

describe("the bash engine off Linux and macOS (reference case 88)", () => {
  it("88: on a platform without the private-control transport every call is a hard error; nothing starts", async () => {
    const seen = recordingObserver();
    const { dispatch } = brush({ observer: seen.observer });
    for (const platform of ["win32", "freebsd"] as const) {
      const dir = tempDir();
      // The gate reads the platform when the call arrives: pretend to be elsewhere.
      Object.defineProperty(process, "platform", { ...realPlatform, value: platform });
      const call = dispatch({ cmd: `echo ran > ${join(dir, "ran")}`, cwd: dir });
      await expect(call).rejects.toThrow(/private-control transport/);
      Object.defineProperty(process, "platform", realPlatform);
      expect(readdirSync(dir)).toEqual([]);
    }
    await settle();
    expect(seen.output).toEqual([]);
    expect(seen.finished).toEqual([]);
  });
});
