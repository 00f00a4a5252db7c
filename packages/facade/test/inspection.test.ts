import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  caveats,
  inspectShell,
  registry,
  type ShellInspection,
  ShellInspectionError,
} from "../src/index.js";

interface RefusedEnvelope {
  readonly denied: boolean;
  readonly denials: readonly { readonly target: string }[];
  readonly shell_inspection: ShellInspection;
}

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDir(): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "bridle-inspection-")));
  made.push(directory);
  return directory;
}

const CASE_50 =
  'ls -1 $(find . -name "*.rs" -type f -exec wc -l {} + 2>/dev/null | sort -nr | head -10)';

describe("the safe engine with shell-brush's inspectShell as its inspector (case 50)", () => {
  it("attaches the real shell_inspection to a dynamic-construct refusal; nothing runs", async () => {
    const dir = tempDir();
    const marker = join(dir, "marker");
    const grant = caveats({
      fs_read: { only: [dir] },
      fs_write: { only: [dir] },
      exec: { only: ["ls", "find", "wc", "sort", "head", "touch"] },
      net: "all",
    });
    const built = registry({ shell: "safe", files: false, baseDir: dir });
    try {
      // The envelope's type keeps `shell_inspection` loose (core does not know the
      // inspector's shape); this test reads it as shell-brush's.
      const envelope = (await built.dispatchOneshot(
        "shell",
        { cmd: `${CASE_50}; touch ${marker}` },
        grant,
      )) as unknown as RefusedEnvelope;
      expect(envelope.denied).toBe(true);
      expect(envelope.denials[0]?.target).toBe("command substitution `$(`");
      const inspection = envelope.shell_inspection;
      expect(inspection).toEqual(inspectShell(`${CASE_50}; touch ${marker}`));
      expect(inspection.schema_version).toBe(1);
      expect(inspection.source).toBe(`${CASE_50}; touch ${marker}`);
      expect(inspection.constructs[0]?.kind).toBe("command_substitution");
      expect(inspection.constructs[0]?.inspection?.commands[0]?.descendant_execs[0]?.program).toBe(
        "wc",
      );
      expect(inspection.commands.map((command) => command.program)).toEqual(["ls", "touch"]);
      expect(envelope).not.toHaveProperty("exit_code");
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await built.close();
    }
  });

  it("attaches nothing when the inspection itself fails closed", async () => {
    const dir = tempDir();
    expect(() => inspectShell("echo $((runtime_value))")).toThrow(ShellInspectionError);
    const built = registry({ shell: "safe", files: false, baseDir: dir });
    try {
      const envelope = (await built.dispatchOneshot(
        "shell",
        { cmd: "echo $((runtime_value))" },
        caveats({ fs_read: "all", fs_write: "all", exec: { only: ["echo"] }, net: "all" }),
      )) as Record<string, unknown>;
      expect(envelope.denied).toBe(true);
      expect(envelope).not.toHaveProperty("shell_inspection");
    } finally {
      await built.close();
    }
  });
});
