import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { only } from "@agent-bridle/core";
import { type Backend, NONE_BACKEND } from "@agent-bridle/sandbox";
import { expect } from "vitest";
import { createShellTool } from "../../src/index.js";
import { HOME, registryWith } from "./helpers.js";

/**
 * The attack catalogue's fixture: `$A` (granted, the cwd) with `ok.txt`, `$O` with
 * `secret.txt` = CANARY-OUT, and the marker `$P` (absent unless code ran).
 */
export function catalogueFixture(ws: string, backend: Backend = NONE_BACKEND) {
  const A = join(ws, "allowed");
  const O = join(ws, "outside");
  mkdirSync(A);
  mkdirSync(O);
  writeFileSync(join(O, "secret.txt"), "CANARY-OUT");
  writeFileSync(join(A, "ok.txt"), "OK");
  const P = join(ws, "PWNED");
  const tool = createShellTool({ home: HOME, tmpdir: "/tmp", baseDir: A, backend });
  const { dispatch } = registryWith(tool);
  /** The catalogue's default shell grants plus `programs`; fs confined to `$A` when `confined`. */
  const grant = (...programs: string[]) => ({
    exec: only(["echo", "cat", "ls", ...programs]),
    fs_read: only([A]),
    fs_write: only([A]),
  });
  /** The default exec grant plus `programs`, every other axis unrestricted (no kernel needed). */
  const execGrant = (...programs: string[]) => ({ exec: only(["echo", "cat", "ls", ...programs]) });
  return { ws, A, O, P, dispatch, grant, execGrant };
}

/** No response holds a canary. */
export const noCanary = (value: unknown) =>
  expect(JSON.stringify(value)).not.toMatch(/CANARY-(OUT|BLK|ENV)/);

/** Processes of this user whose command line contains `needle` (Linux `/proc`). */
export function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "latin1");
      if (cmdline.includes(needle)) found.push(Number(name));
    } catch {}
  }
  return found;
}
