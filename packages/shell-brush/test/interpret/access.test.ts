import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordingGate, runGated } from "./recording-gate.js";
import { scratch } from "./run.js";

function tree(): string {
  const root = scratch();
  writeFileSync(join(root, "secret"), "classified\n");
  writeFileSync(join(root, "open.txt"), "public\n");
  mkdirSync(join(root, "sub"));
  return root;
}

describe("interpreter: every touch goes through ShellAccess", () => {
  it("refuses a read redirection by policy with bash's text, status 1, and records it", async () => {
    const root = tree();
    const { access, calls } = recordingGate((_op, path) => path.endsWith("/secret"));
    const result = await runGated("read line < secret; echo $? [$line]", root, access);
    expect(result.stdout).toBe("1 []\n");
    expect(result.stderr).toBe("bash: line 1: secret: Permission denied\n");
    expect(result.denials.map((denial) => denial.target)).toEqual([join(root, "secret")]);
    expect(calls).toContainEqual({
      operation: "open",
      path: join(root, "secret"),
      detail: undefined,
    });
  });

  it("opens output redirections with openRedirect (modes included); a refusal creates nothing", async () => {
    const root = tree();
    const { access, calls } = recordingGate((_op, path) => path.endsWith("/denied.txt"));
    const result = await runGated(
      "echo a > out.txt; echo b >> out.txt; set -C; echo c > out.txt; echo d > denied.txt; echo $?",
      root,
      access,
    );
    expect(result.stdout).toBe("1\n");
    expect(result.stderr).toBe(
      "bash: line 1: out.txt: cannot overwrite existing file\nbash: line 1: denied.txt: Permission denied\n",
    );
    expect(existsSync(join(root, "denied.txt"))).toBe(false);
    const modes = calls
      .filter((call) => call.operation === "openRedirect")
      .map((call) => call.detail);
    expect(modes).toEqual([
      { append: false, exclusive: false, readWrite: false },
      { append: true, exclusive: false, readWrite: false },
      { append: false, exclusive: true, readWrite: false },
      { append: false, exclusive: true, readWrite: false },
    ]);
  });

  it("never opens /dev/stdout, /dev/stderr or /dev/null", async () => {
    const root = tree();
    const { access, calls } = recordingGate(() => true);
    const result = await runGated(
      "echo out > /dev/stdout; echo err > /dev/stderr; echo gone > /dev/null; cat < /dev/null",
      root,
      access,
    );
    expect(result.stdout).toBe("out\n");
    expect(result.stderr).toContain("err\n");
    expect(calls.filter((call) => call.operation !== "exec")).toEqual([]);
  });

  it("fails a command refused by checkExec with 126 and starts nothing; the script goes on", async () => {
    const root = tree();
    const { access, calls } = recordingGate((op, path) => op === "exec" && path.endsWith("/grep"));
    const result = await runGated("grep x open.txt; echo $?", root, access);
    expect(result.stdout).toBe("126\n");
    expect(result.stderr).toMatch(/^grep: execution denied: exec of \/.*\/grep is not granted\n$/);
    expect(result.started).toEqual([]);
    const exec = calls.find((call) => call.operation === "exec");
    expect(exec?.detail).toBe("grep");
    expect(exec?.path).toMatch(/^\/.*\/grep$/);
    expect(result.denials).toHaveLength(1);
  });

  it("runs the carried utilities in-process, exec-checked under their name, opening through the gate", async () => {
    const root = tree();
    const allowed = recordingGate((_op, path) => path.endsWith("/secret"));
    const ran = await runGated(
      "cat open.txt secret; echo $?; ls sub; wc -l < open.txt",
      root,
      allowed.access,
    );
    expect(ran.stdout).toBe("public\n1\n1\n");
    expect(ran.stderr).toBe("cat: secret: Permission denied\n");
    expect(ran.started).toEqual([]);
    expect(allowed.calls).toContainEqual({ operation: "exec", path: "cat", detail: "cat" });
    const refused = recordingGate((op, path) => op === "exec" && path === "cat");
    const denied = await runGated("cat open.txt; echo $?", root, refused.access);
    expect(denied.stdout).toBe("126\n");
    expect(denied.stderr).toBe("cat: execution denied: exec of cat is not granted\n");
    expect(refused.calls.filter((call) => call.operation === "open")).toEqual([]);
  });

  it("lists directories for globbing, and probes for cd and test, through the gate", async () => {
    const root = tree();
    const { access, calls } = recordingGate((_op, path) => path === join(root, "sub"));
    const result = await runGated(
      "echo *.txt; cd sub; echo $?; [ -d sub ] && echo dir || echo no; [[ -f open.txt ]] && echo file",
      root,
      access,
    );
    expect(result.stdout).toBe("open.txt\n1\nno\nfile\n");
    expect(result.stderr).toBe("bash: line 1: cd: sub: Permission denied\n");
    expect(calls).toContainEqual({ operation: "readdir", path: root, detail: undefined });
    expect(calls).toContainEqual({
      operation: "stat",
      path: join(root, "open.txt"),
      detail: undefined,
    });
  });

  it("reads source files through open", async () => {
    const root = tree();
    writeFileSync(join(root, "lib.sh"), "greet() { echo hello; }\n");
    const { access } = recordingGate((_op, path) => path.endsWith("/secret"));
    const result = await runGated(". ./lib.sh; greet; source secret; echo $?", root, access);
    expect(result.stdout).toBe("hello\n1\n");
    expect(result.stderr).toBe("bash: line 1: secret: Permission denied\n");
  });

  it("serves its own process substitutions from memory while script-written /dev/fd paths meet the gate", async () => {
    const root = tree();
    const { access } = recordingGate((_op, path) => path.startsWith("/dev/fd/"));
    const result = await runGated(
      "cat <(echo one); while read x; do echo got $x; done < <(echo two); diff <(echo a) <(echo a) && echo same; cat /dev/fd/0; echo $?",
      root,
      access,
    );
    expect(result.stdout).toBe("one\ngot two\nsame\n1\n");
    expect(result.stderr).toBe("cat: /dev/fd/0: Permission denied\n");
  });
});
