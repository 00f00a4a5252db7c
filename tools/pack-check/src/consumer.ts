import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type EntryPoint, entryPointsOf } from "./entry-points.js";
import { run, tail } from "./run.js";

/** The first line of npm's output that says the registry could not be reached, if any. */
export function networkFailure(output: string): string | undefined {
  return output
    .split("\n")
    .find((line) =>
      /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/.test(
        line,
      ),
    );
}

/**
 * An empty project (`type: module`, no dependencies) with every tarball installed into it
 * by npm, together, so the packages' dependencies on each other resolve to the tarballs
 * and third-party ones come from the npm registry (or npm's cache). Throws with a clear
 * message when the registry cannot be reached.
 */
export async function installIntoEmptyProject(
  projectDir: string,
  tarballs: readonly string[],
): Promise<void> {
  await mkdir(projectDir, { recursive: true });
  await writeFile(
    join(projectDir, "package.json"),
    `${JSON.stringify({ name: "pack-check-consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = await run(
    npm,
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...tarballs],
    { cwd: projectDir },
  );
  if (result.code === 0) return;
  const output = result.stdout + result.stderr;
  const offline = networkFailure(output);
  if (offline !== undefined) {
    throw new Error(
      `pack check: npm install needs the npm registry (or npm's cache) for the packages' third-party dependencies, and it could not be reached: ${offline.trim()}`,
    );
  }
  throw new Error(`pack check: npm install of the tarballs failed\n${tail(output)}`);
}

export interface LoadedEntryPoint {
  readonly specifier: string;
  /** How many named exports the module has (a JSON module: its top-level keys). */
  readonly exports: number;
}

const LOADER = `
const entries = JSON.parse(process.argv[1]);
const loaded = [];
for (const { specifier, json } of entries) {
  const module = json
    ? await import(specifier, { with: { type: "json" } })
    : await import(specifier);
  const value = json ? module.default : module;
  loaded.push({ specifier, exports: Object.keys(value).length });
}
process.stdout.write(JSON.stringify(loaded));
`;

/** The installed package's manifest (as packed: `workspace:*` already rewritten). */
export async function installedManifest(projectDir: string, name: string) {
  const text = await readFile(join(projectDir, "node_modules", name, "package.json"), "utf8");
  return JSON.parse(text) as {
    name: string;
    version: string;
    exports?: unknown;
    main?: unknown;
    bin?: string | Record<string, string>;
    dependencies?: Record<string, string>;
  };
}

/** Imports each entry point in a fresh Node process run from the consumer project. */
export async function loadEntryPoints(
  projectDir: string,
  entries: readonly EntryPoint[],
): Promise<LoadedEntryPoint[]> {
  const result = await run(
    process.execPath,
    ["--input-type=module", "-e", LOADER, JSON.stringify(entries)],
    { cwd: projectDir },
  );
  if (result.code !== 0) {
    throw new Error(
      `pack check: loading ${entries.map((entry) => entry.specifier).join(", ")} failed\n${tail(result.stderr)}`,
    );
  }
  return JSON.parse(result.stdout) as LoadedEntryPoint[];
}

export { entryPointsOf };
