// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell source, where ${NAME} is literal input.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { only } from "@agent-bridle/core";
import { createLandlockBackend } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createShellTool } from "../../src/index.js";
import { asDenied, asRun, HOME, registryWith, useTempDirs } from "./helpers.js";

// Linux only: real processes under the launcher (Landlock, seccomp, PID namespace).
const tempDir = useTempDirs();
const backend = createLandlockBackend();
const landlock = process.platform === "linux" && (await backend.probe()).available;

/** The catalogue's fixture: $A (granted), $O with secret.txt, $P (marker), $A/ok.txt. */
function fixture() {
  const ws = tempDir();
  const A = join(ws, "allowed");
  const O = join(ws, "outside");
  mkdirSync(A);
  mkdirSync(O);
  writeFileSync(join(O, "secret.txt"), "CANARY-OUT");
  writeFileSync(join(A, "ok.txt"), "OK");
  writeFileSync(join(A, "victim"), "v");
  const P = join(ws, "PWNED");
  const tool = createShellTool({ home: HOME, tmpdir: "/tmp", baseDir: A, backend });
  const { dispatch } = registryWith(tool);
  const grant = (...programs: string[]) => ({
    exec: only(["echo", "cat", "ls", ...programs]),
    fs_read: only([A]),
    fs_write: only([A]),
  });
  return { ws, A, O, P, dispatch, grant };
}

const noCanary = (value: unknown) => expect(JSON.stringify(value)).not.toMatch(/CANARY-(OUT|BLK)/);

// Linux only (the launcher is Linux's backend). On Linux a launcher that cannot run is a
// failure, not a skip.
describe.skipIf(process.platform !== "linux")(
  "shell-safe on the kernel boundary (Linux, Landlock)",
  () => {
    it("the launcher is usable on this Linux host", () => {
      expect(landlock).toBe(true);
    });

    it("63: exec only[touch], fs_write only[allowed]: the inside write works, the outside one fails", async () => {
      const { A, O, dispatch } = fixture();
      const grant = { exec: only(["touch"]), fs_write: only([A]) };
      const ok = asRun(await dispatch({ cmd: `touch ${A}/ok` }, grant));
      expect(ok).toMatchObject({
        exit_code: 0,
        sandbox_kind: "landlock",
        enforcement: { fs_write: "kernel" },
      });
      const outside = asRun(await dispatch({ program: "touch", args: [`${O}/escape`] }, grant));
      expect(outside.exit_code).not.toBe(0);
      expect(existsSync(join(O, "escape"))).toBe(false);
    });

    it("64: find -exec touch outside is kernel-denied; inside succeeds (containment)", async () => {
      const { A, O, dispatch } = fixture();
      const grant = { exec: only(["find", "touch"]), fs_write: only([A]) };
      await dispatch({ cmd: `find ${A} -name ok.txt -exec touch ${O}/escape ';'` }, grant);
      expect(existsSync(join(O, "escape"))).toBe(false);
      await dispatch({ cmd: `find ${A} -name ok.txt -exec touch ${A}/made ';'` }, grant);
      expect(existsSync(join(A, "made"))).toBe(true);
    });

    it("65: grep -f <forbidden> under fs_read only[allowed] fails with empty stdout", async () => {
      const { A, O, dispatch } = fixture();
      const envelope = asRun(
        await dispatch(
          { program: "grep", args: ["-f", `${O}/secret.txt`, `${A}/ok.txt`] },
          { exec: only(["grep"]), fs_read: only([A]) },
        ),
      );
      expect(envelope).toMatchObject({ stdout: "", sandbox_kind: "landlock" });
      expect(envelope.exit_code).not.toBe(0);
    });

    it("66: dd to /dev/null works (device sinks stay writable); > /dev/null too", async () => {
      const { A, dispatch } = fixture();
      const grant = { exec: only(["dd", "echo"]), fs_write: only([A]) };
      expect(
        asRun(await dispatch({ cmd: "dd if=/dev/zero of=/dev/null count=1" }, grant)).exit_code,
      ).toBe(0);
      expect(asRun(await dispatch({ cmd: "echo x > /dev/null 2>&1" }, grant)).exit_code).toBe(0);
    });

    it("redirects are placed on 0/1/2 by the funnel (no shell in between): only 0–2 reach the program", async () => {
      const { A, dispatch, grant } = fixture();
      const envelope = asRun(
        await dispatch({ cmd: "ls /proc/self/fd > fds; cat < ok.txt > copy" }, grant()),
      );
      expect(envelope.exit_code).toBe(0);
      expect(readFileSync(join(A, "copy"), "utf8")).toBe("OK");
      expect(readFileSync(join(A, "fds"), "utf8").trim().split("\n").sort()).toEqual([
        "0",
        "1",
        "2",
        "3",
      ]);
    });

    // Attack catalogue §3 (parsing), judged per spec §12, each with its argv-form control.
    it("A38: echo hi && rm $A/victim is refused whole; argv control prints the tokens", async () => {
      const { A, dispatch, grant } = fixture();
      const denied = asDenied(await dispatch({ cmd: `echo hi > made && rm ${A}/victim` }, grant()));
      expect(denied.denials[0]).toMatchObject({ kind: "exec", target: "rm" });
      expect(existsSync(join(A, "victim"))).toBe(true);
      expect(existsSync(join(A, "made"))).toBe(false);
      const control = asRun(
        await dispatch({ program: "echo", args: ["hi", "&&", "rm", `${A}/victim`] }, grant()),
      );
      expect(control.stdout).toBe(`hi && rm ${A}/victim\n`);
    });

    it.each([
      ["A40", "(echo a; rm victim)"],
      ["A40", "{ echo a; rm victim; }"],
      ["A42", "cat <(rm victim)"],
      ["A44", "echo ${HOME@P}"],
      ["A44", "echo ${HOME:-$(touch PWNED)}"],
      ["A46", "cat${IFS}victim"],
      ["A50", "echo 'a # b' ; rm victim # '"],
      ["A56", "eval rm victim"],
      ["A56", "sh -c 'rm victim'"],
      ["A56", "exec rm victim"],
      ["A56", ". ./x"],
      ["A62", "cat ~root/x"],
      ["A62", "echo ~+"],
    ])("%s: %s is refused, nothing runs; argv control is literal", async (_id, cmd) => {
      const { A, P, dispatch, grant } = fixture();
      const denied = asDenied(await dispatch({ cmd }, grant()));
      expect(denied.denied).toBe(true);
      expect(existsSync(join(A, "victim"))).toBe(true);
      expect(existsSync(P)).toBe(false);
      const control = asRun(await dispatch({ program: "echo", args: [cmd] }, grant()));
      expect(control.stdout).toBe(`${cmd}\n`);
    });

    it("A48: quote removal in the program word: r''m is rm and refused; control", async () => {
      const { A, dispatch, grant } = fixture();
      for (const cmd of ["r''m victim", '"r"m victim', "\\rm victim", "'rm' victim"]) {
        expect(asDenied(await dispatch({ cmd }, grant())).denials[0]).toMatchObject({
          kind: "exec",
          target: "rm",
        });
      }
      expect(existsSync(join(A, "victim"))).toBe(true);
      expect(asRun(await dispatch({ program: "echo", args: ["r''m"] }, grant())).stdout).toBe(
        "r''m\n",
      );
    });

    it("A52: CR, NBSP and zero-width characters are refused, never split", async () => {
      const { dispatch, grant } = fixture();
      for (const cmd of ["echo a\rrm victim", "echo\u00a0hi", "rm\u200b victim"]) {
        expect(asDenied(await dispatch({ cmd }, grant())).denied).toBe(true);
      }
      expect(asRun(await dispatch({ program: "echo", args: ["a\u00a0b"] }, grant())).stdout).toBe(
        "a\u00a0b\n",
      );
    });

    it("A54: a symlink to $O is judged by its real location (redirect and glob)", async () => {
      const { A, O, dispatch, grant } = fixture();
      symlinkSync(O, join(A, "link"));
      noCanary(await dispatch({ cmd: "cat < link/secret.txt" }, grant()));
      expect(
        asDenied(await dispatch({ cmd: "cat < link/secret.txt" }, grant())).denials[0]?.kind,
      ).toBe("open");
      expect(asDenied(await dispatch({ cmd: "echo link/*" }, grant())).denials[0]?.kind).toBe(
        "open",
      );
      expect(asDenied(await dispatch({ cmd: "echo x > link/new" }, grant())).denials[0]?.kind).toBe(
        "open",
      );
      expect(existsSync(join(O, "new"))).toBe(false);
      // containment: cat granted, reading through the link is stopped by the kernel
      const contained = await dispatch({ program: "cat", args: ["link/secret.txt"] }, grant());
      noCanary(contained);
      expect(asRun(contained).exit_code).not.toBe(0);
    });

    it("A58: ./rm, bin/rm and an absolute rm are not admitted by only[echo,cat,ls]", async () => {
      const { A, dispatch, grant } = fixture();
      writeFileSync(join(A, "ls"), "#!/bin/sh\ntouch PWNED\n", { mode: 0o755 });
      for (const cmd of ["./ls", `${A}/ls`, "/bin/rm victim", "/usr/bin/rm victim"]) {
        expect(asDenied(await dispatch({ cmd }, grant())).denials[0]?.kind).toBe("exec");
      }
      expect(asDenied(await dispatch({ program: "./ls" }, grant())).denials[0]?.kind).toBe("exec");
      expect(asRun(await dispatch({ cmd: "/bin/echo ok" }, grant())).stdout).toBe("ok\n");
    });

    it("A60: glob matches that look like options are contained (ls -la style names only list $A)", async () => {
      const { A, P, dispatch, grant } = fixture();
      writeFileSync(join(A, "--version"), "");
      const envelope = asRun(await dispatch({ cmd: "ls *" }, grant()));
      // bash passes the option-shaped name too; the effect stays inside the grant
      expect(envelope.sandbox_kind).toBe("landlock");
      expect(existsSync(P)).toBe(false);
      noCanary(envelope);
    });

    it("A62: ~ is the configured HOME, judged: ~/.ssh/id_rsa is refused", async () => {
      const { dispatch, grant } = fixture();
      expect(
        asDenied(await dispatch({ cmd: "cat < ~/.ssh/id_rsa" }, grant())).denials[0]?.kind,
      ).toBe("open");
      expect(asRun(await dispatch({ cmd: "echo ~" }, grant())).stdout).toBe(`${HOME}\n`);
    });

    it("A64: paths as option values are contained by the kernel (no per-program model)", async () => {
      const { O, dispatch, grant } = fixture();
      const envelope = await dispatch(
        { cmd: `sort -o ${O}/x ok.txt; cat --squeeze-blank ${O}/secret.txt` },
        grant("sort"),
      );
      noCanary(envelope);
      expect(existsSync(join(O, "x"))).toBe(false);
    });

    it("A66: size and count caps fail closed", async () => {
      const { dispatch, grant } = fixture();
      const many = Array.from({ length: 300 }, () => "echo a").join(";");
      expect(asDenied(await dispatch({ cmd: many }, grant())).denials[0]?.code).toBe(
        "SHELL_LIMIT_EXCEEDED",
      );
      const tool = createShellTool({ home: HOME, tmpdir: "/tmp", baseDir: "/", backend });
      expect(tool.inputSchema.safeParse({ cmd: "x".repeat(70_000) }).success).toBe(false);
    });

    it("A68: /dev/tcp is a path like any other: refused, and the listener sees nothing", async () => {
      let connections = 0;
      const server = createServer(() => {
        connections += 1;
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as { port: number };
      try {
        const { dispatch, grant } = fixture();
        const denied = asDenied(
          await dispatch(
            { cmd: `echo hi > /dev/tcp/127.0.0.1/${port}` },
            { ...grant(), net: only([]) },
          ),
        );
        expect(denied.denials[0]?.kind).toBe("open");
        expect(connections).toBe(0);
      } finally {
        server.close();
      }
    });

    // Attack catalogue §4 (options): the named program granted → containment per spec §12.
    it("A70: xargs granted: the delegated rm/sh run under the same fence (not granted → exec denied by the kernel)", async () => {
      const { A, O, P, dispatch, grant } = fixture();
      expect(asDenied(await dispatch({ cmd: "ls | xargs rm" }, grant())).denials[0]?.target).toBe(
        "xargs",
      );
      await dispatch({ cmd: `echo ${O}/secret.txt | xargs rm` }, grant("xargs"));
      await dispatch({ cmd: `echo touch ${P} | xargs -I% sh -c %` }, grant("xargs"));
      expect(existsSync(join(O, "secret.txt"))).toBe(true);
      expect(existsSync(P)).toBe(false);
      noCanary(await dispatch({ cmd: `echo ${O}/secret.txt | xargs cat` }, grant("xargs")));
      expect(existsSync(join(A, "victim"))).toBe(true);
    });

    it("A76: tar's exec options under a tar grant are contained (no marker, nothing outside $A)", async () => {
      const { P, dispatch, grant } = fixture();
      await dispatch(
        { cmd: `tar cf o.tar --checkpoint=1 --checkpoint-action=exec='touch ${P}' ok.txt` },
        grant("tar"),
      );
      await dispatch({ cmd: `tar -I 'touch ${P}' -cf o2.tar ok.txt` }, grant("tar"));
      expect(existsSync(P)).toBe(false);
    });

    it("A78: pagers and editors are not granted; granted less cannot spawn a shell", async () => {
      const { P, dispatch, grant } = fixture();
      for (const cmd of [
        `man -P 'touch ${P}' ls`,
        `less '+!touch ${P}' ok.txt`,
        `vim -c ':!touch ${P}' -c ':q' ok.txt`,
      ]) {
        expect(asDenied(await dispatch({ cmd }, grant())).denials[0]?.kind).toBe("exec");
      }
      expect(existsSync(P)).toBe(false);
    });

    it("A80: curl writing or reading outside, and posting, is contained (no net grant → no egress)", async () => {
      const { O, dispatch, grant } = fixture();
      const strict = { ...grant("curl"), net: only([]) };
      noCanary(await dispatch({ cmd: `curl -s file://${O}/secret.txt` }, strict));
      await dispatch({ cmd: `curl -s -o ${O}/x file://${O}/secret.txt` }, strict);
      expect(existsSync(join(O, "x"))).toBe(false);
    });
  },
);
