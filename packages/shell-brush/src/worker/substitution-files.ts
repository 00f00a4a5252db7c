/**
 * Process substitutions for an external program. The interpreter names them `/dev/fd/N`
 * and hands their bytes over as descriptors; Node can only give a child sockets there,
 * which a program cannot open by name (`ENXIO`). So in the worker each one becomes a file
 * in the call's private temp directory (granted and disclosed by the funnel): an input's
 * bytes written before the program starts, an output read back after it ends; the
 * program's argv names the file instead of `/dev/fd/N`. Descriptors no argument names
 * (`exec 3<f`, read by number) are handed over as descriptors.
 */
import { randomBytes } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ExternalDescriptor } from "../interpret/io/external.js";

export interface SubstitutionFiles {
  readonly argv: readonly string[];
  /** The descriptors no argument names by path (`exec 3<f`): handed over by number. */
  readonly passed: ReadonlyMap<number, ExternalDescriptor>;
  /** Delivers outputs to their readers and removes the files. */
  finish(): Promise<void>;
}

export async function substitutionFiles(
  argv: readonly string[],
  descriptors: ReadonlyMap<number, ExternalDescriptor> | undefined,
  directory: string,
): Promise<SubstitutionFiles> {
  const paths = new Map<number, string>();
  const passed = new Map<number, ExternalDescriptor>();
  const named = new Set(
    argv.flatMap((arg) => {
      const match = /^\/dev\/fd\/(\d+)$/.exec(arg);
      return match ? [Number(match[1])] : [];
    }),
  );
  for (const [fd, descriptor] of descriptors ?? []) {
    if (!named.has(fd)) {
      passed.set(fd, descriptor);
      continue;
    }
    const path = join(directory, `substitution-${fd}-${randomBytes(6).toString("hex")}`);
    await writeFile(path, "input" in descriptor ? descriptor.input : new Uint8Array(), {
      mode: 0o600,
      flag: "wx",
    });
    paths.set(fd, path);
  }
  return {
    argv: argv.map((arg) => {
      const match = /^\/dev\/fd\/(\d+)$/.exec(arg);
      return (match ? paths.get(Number(match[1])) : undefined) ?? arg;
    }),
    passed,
    async finish() {
      for (const [fd, path] of paths) {
        const descriptor = descriptors?.get(fd);
        if (descriptor && "output" in descriptor) descriptor.output(await readFile(path));
        await rm(path, { force: true });
      }
    },
  };
}
