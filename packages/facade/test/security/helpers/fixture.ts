import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The canaries of the catalogue's fixture: any of them in a response is a leak. */
export const CANARY = /CANARY-(OUT|BLK|ENV)/;

/**
 * The attack catalogue's fixture (its "Fixture placeholders"): a fresh `$WS` holding
 * `$A` (granted; `ok.txt` = OK, `victim`), `$O` (not granted; `secret.txt` =
 * CANARY-OUT), `$B` = `$A/blocked` (blocked by the path policy; `key.txt` = CANARY-BLK)
 * and the markers `$P`, `$P2`, … (absent unless code ran).
 */
export interface Fixture {
  readonly WS: string;
  readonly A: string;
  readonly O: string;
  readonly B: string;
  readonly P: string;
  /** `$P2`, `$P3`, …: further markers. */
  marker(n: number): string;
  /** Every path under `$WS` outside `$A` (and under `$B`) with its content or link target. */
  snapshot(): Map<string, string>;
  /** The markers that exist now (any `PWNED*` name under `$WS`, `$A` included). */
  markers(): string[];
}

export function makeFixture(): Fixture {
  const WS = realpathSync(mkdtempSync(join(tmpdir(), "bridle-security-")));
  const A = join(WS, "allowed");
  const O = join(WS, "outside");
  const B = join(A, "blocked");
  mkdirSync(A);
  mkdirSync(O);
  mkdirSync(B);
  writeFileSync(join(O, "secret.txt"), "CANARY-OUT");
  writeFileSync(join(B, "key.txt"), "CANARY-BLK");
  writeFileSync(join(A, "ok.txt"), "OK");
  writeFileSync(join(A, "victim"), "v");
  const marker = (n: number) => join(WS, n === 1 ? "PWNED" : `PWNED${n}`);
  const snapshot = () => {
    const seen = new Map<string, string>();
    const walk = (directory: string) => {
      for (const name of readdirSync(directory).sort()) {
        const path = join(directory, name);
        if (path === A) continue;
        const stat = lstatSync(path);
        if (stat.isSymbolicLink()) seen.set(path, `link:${readlinkSync(path)}`);
        else if (stat.isDirectory()) {
          seen.set(path, `dir:${stat.mode}`);
          walk(path);
        } else if (stat.isFile())
          seen.set(path, `file:${stat.mode}:${readFileSync(path, "latin1")}`);
        else seen.set(path, `other:${stat.mode}`);
      }
    };
    walk(WS);
    walk(B);
    return seen;
  };
  const markers = () => {
    const found: string[] = [];
    const walk = (directory: string) => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name);
        if (entry.name.startsWith("PWNED")) found.push(path);
        if (entry.isDirectory()) walk(path);
      }
    };
    walk(WS);
    return found;
  };
  return { WS, A, O, B, P: marker(1), marker, snapshot, markers };
}

export function removeFixture(fixture: Fixture): void {
  if (existsSync(fixture.WS)) rmSync(fixture.WS, { recursive: true, force: true });
}
