import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { type AuditEvent, caveats, type Grant, type Registry, registry } from "agent-bridle";
import { afterEach } from "vitest";

export interface Project {
  /** The project directory: readable and writable under the grant. */
  readonly dir: string;
  /** A directory outside the grant (neither readable nor writable). */
  readonly outside: string;
  readonly registry: Registry;
  readonly grant: Grant;
  /** Whether `name` exists in the project directory. */
  has(name: string): boolean;
  read(name: string): string;
  /**
   * The argv of every process the registry's funnel admitted, other than the bash
   * engine's own workers (the interpreter, which starts for each call and runs nothing
   * the grant refuses), from the audit sink.
   */
  programsSpawned(): string[];
}

export interface ProjectOptions {
  readonly maxCalls?: number | undefined;
  readonly programs?: readonly string[] | undefined;
}

/**
 * A fresh project per test: `in.txt` to read, a registry with its base there (the default
 * engine, the bash engine on Linux), and a grant naming every axis: read the project and
 * `/usr`, write the project, run `echo`, `cat` and `sleep`, no network.
 */
export function useProjects(): (options?: ProjectOptions) => Project {
  const tempDir = useTempDirs("bridle-adapters-");
  const registries: Registry[] = [];
  afterEach(async () => {
    for (const built of registries.splice(0)) await built.close();
  });
  return (options = {}) => {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(join(dir, "in.txt"), "hello from in.txt\n");
    writeFileSync(join(outside, "secret.txt"), "outside the grant\n");
    const events: AuditEvent[] = [];
    const built = registry({ baseDir: dir, audit: { record: (event) => events.push(event) } });
    registries.push(built);
    const grant = built.mintGrant(
      caveats({
        fs_read: { only: [dir, "/usr"] },
        fs_write: { only: [dir] },
        exec: { only: [...(options.programs ?? ["echo", "cat", "sleep"])] },
        net: { only: [] },
        max_calls: options.maxCalls === undefined ? "unlimited" : { at_most: options.maxCalls },
        valid_for_generation: "all",
      }),
    );
    return {
      dir,
      outside,
      registry: built,
      grant,
      has: (name) => existsSync(join(dir, name)),
      read: (name) => readFileSync(join(dir, name), "utf8"),
      programsSpawned: () =>
        events
          .filter((event) => event.type === "spawn" && event.decision === "admitted")
          .map((event) => (event.type === "spawn" ? event.argv : []))
          .filter((argv) => !argv.includes("--agent-bridle-worker"))
          .map((argv) => argv.join(" ")),
    };
  };
}
