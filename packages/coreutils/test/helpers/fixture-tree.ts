import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const DAY = 86_400;

/** The generated inputs every differential suite shares (file name → content). */
export const FIXTURE_FILES: Readonly<Record<string, string | Buffer>> = {
  empty: "",
  "no-newline": "alpha beta",
  lines: "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n",
  blanks: "\n\nfirst\n\n\n\nsecond\n\n\nthird\n\n",
  crlf: "a line\r\nanother\r\n\r\nlast\r\n",
  nul: Buffer.from("nul\0inside\nand\0\0more\0\n\0\n"),
  binary: Buffer.from(Array.from({ length: 256 }, (_, index) => index)),
  latin: Buffer.from([
    0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x20, 0x80, 0x0a, 0xc3, 0xa9, 0x0a,
  ]),
  tabs: "a\tb\t\tc\n\tlead\ntrail\t\n12345678\tx\n",
  long: `${"x".repeat(70_000)}\n${"word ".repeat(20_000)}\nend`,
  words: "  several   words\there\n\nand\vmore\fwords\rhere  \n",
  numbers: "10\n9\n-3\n2.5\n+4\n1e3\n abc\n007\n-0\n0\n.5\n-.5\n1,000\n 12\n3a\n\n-\n",
  human: "1K\n2M\n3\n512\n1G\n1.5K\n10k\n-2K\n0\nfoo\n2T\n1024\n999M\n",
  versions:
    "a1.10\na1.2\na1.9.1\nfile-1.0.tar.gz\nfile-1.0a.tar.gz\nv2\nv10\nv1.0~rc1\nv1.0\n.hidden\n",
  fields: "b:2:x y\na:10:y  z\nc:1:x a\nB:2:w b\na:3:q\n d:4:r\n",
  mixed: "banana\nApple\napple\nbanana\n cherry\nCherry\n\tdate\napple\n",
  dups: "a\na\nb\nB\nb\nc\na\n",
  sorted: "a\nb\nb\nc\n",
  unsorted: "a\nc\nb\n",
  spaced: "  10 x\n2 y\n   3 z\n1 w\n",
  "name with space": "spaced name\n",
  "it's": "quote\n",
  "exec.sh": "#!/bin/sh\n",
};

export interface FixtureTree {
  readonly root: string;
  remove(): void;
}

/**
 * Builds the shared fixture tree under the system temp directory, with fixed times. The
 * tree sits one level down in a private directory, so its `..` (listed by `ls -a`) does
 * not change while other tests create and remove entries in the temp directory.
 */
export function createFixtureTree(): FixtureTree {
  const outer = mkdtempSync(join(tmpdir(), "coreutils-diff-"));
  const root = join(outer, "tree");
  mkdirSync(root);
  const now = Math.floor(Date.now() / 1000);
  let age = 0;
  const stamp = (path: string, seconds: number) => utimesSync(path, seconds, seconds);
  for (const [name, content] of Object.entries(FIXTURE_FILES)) {
    writeFileSync(join(root, name), content);
    age += 1;
    stamp(join(root, name), now - age * 3600);
  }
  stamp(join(root, "binary"), now - 400 * DAY);
  writeFileSync(join(root, ".hidden"), "hidden\n");
  mkdirSync(join(root, "dir/sub/deeper"), { recursive: true });
  writeFileSync(join(root, "dir/a.txt"), "a\n");
  writeFileSync(join(root, "dir/b.txt"), "bb\nbb\n");
  writeFileSync(join(root, "dir/.dot"), "");
  writeFileSync(join(root, "dir/sub/c.txt"), "c".repeat(5000));
  writeFileSync(join(root, "dir/sub/deeper/d"), "d\n");
  mkdirSync(join(root, "many"));
  for (let index = 0; index < 40; index += 1) {
    const path = join(root, "many", `file-${String(index).padStart(2, "0")}`);
    writeFileSync(path, "x\n".repeat(index * 37));
    stamp(path, now - (index % 7) * 600 - index);
  }
  mkdirSync(join(root, "emptydir"));
  symlinkSync("lines", join(root, "link-to-lines"));
  symlinkSync("dir", join(root, "link-to-dir"));
  symlinkSync("nowhere", join(root, "dangling"));
  writeFileSync(join(root, "big"), "0123456789".repeat(150_000));
  stamp(join(root, "dir"), now - 50 * DAY);
  stamp(join(root, "many"), now - 20 * DAY);
  stamp(join(root, "emptydir"), now - 30 * DAY);
  stamp(join(root, "big"), now + 40 * DAY);
  stamp(outer, now - 60 * DAY);
  return { root, remove: () => rmSync(outer, { recursive: true, force: true }) };
}
