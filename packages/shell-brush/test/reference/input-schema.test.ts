import { readdirSync } from "node:fs";
import { join } from "node:path";
import { InvalidArgumentsError } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { brush } from "./helpers.js";

const tempDir = useTempDirs("brush-ref-schema-");

describe("the bash engine's input (spec §14, the common shell input)", () => {
  it("advertises exactly cmd (required), cwd, env and timeout_secs with the configured maximum", () => {
    const { tool } = brush();
    const schema = z.toJSONSchema(tool.inputSchema) as {
      properties: Record<string, { maximum?: number }>;
      required: string[];
    };
    expect(Object.keys(schema.properties).sort()).toEqual(["cmd", "cwd", "env", "timeout_secs"]);
    expect(schema.required).toEqual(["cmd"]);
    expect(schema.properties.timeout_secs?.maximum).toBe(300);
  });

  it("rejects (never clamps) an out-of-range timeout, a missing cmd, program+args and unknown fields; nothing runs", async () => {
    const dir = tempDir();
    const { dispatch } = brush();
    const marker = `echo ran > ${join(dir, "ran")}`;
    for (const [args, field] of [
      [{ cmd: marker, cwd: dir, timeout_secs: 9999 }, "timeout_secs"],
      [{ cmd: marker, cwd: dir, timeout_secs: 0 }, "timeout_secs"],
      [{ cwd: dir }, "cmd"],
      [{ program: "touch", args: [join(dir, "ran")], cwd: dir }, ""],
      [{ cmd: marker, cwd: dir, sandbox: "off" }, ""],
    ] as const) {
      const call = dispatch(args as Record<string, unknown>);
      await expect(call).rejects.toBeInstanceOf(InvalidArgumentsError);
      await call.catch((error: InvalidArgumentsError) => {
        expect(error.code).toBe("INVALID_ARGUMENTS");
        if (field) expect(error.message).toContain(field);
        if (field === "timeout_secs" && args.timeout_secs === 9999) {
          expect(error.message).toContain("300");
        }
      });
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
