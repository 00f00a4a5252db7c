/** The bash-compat corpus: YAML files of cases, read into typed records (unknown keys ignored). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseYaml, type YamlValue } from "./yaml.js";

export interface TestFile {
  readonly path: string;
  readonly contents: string;
  readonly executable: boolean;
}

export interface CompatCase {
  readonly name: string;
  readonly stdin: string | null;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly homeDir: string | null;
  readonly testFiles: readonly TestFile[];
  readonly ignoreStdout: boolean;
  readonly ignoreStderr: boolean;
  readonly ignoreExitStatus: boolean;
  readonly ignoreWhitespace: boolean;
  readonly expectedStdout: string | null;
  readonly expectedExitCode: number | null;
  readonly skip: boolean;
  readonly pty: boolean;
  readonly incompatibleOs: readonly string[];
  readonly incompatiblePlatforms: readonly string[];
  readonly minOracleVersion: string | null;
  readonly maxOracleVersion: string | null;
}

export interface CompatFile {
  /** Path relative to the corpus root, e.g. `builtins/alias.yaml`. */
  readonly path: string;
  readonly name: string;
  readonly cases: readonly CompatCase[];
}

type YamlRecord = { readonly [key: string]: YamlValue };

function isRecord(value: YamlValue | undefined): value is YamlRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: YamlValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "object" ? null : String(value);
}

function list(value: YamlValue | undefined): string[] {
  return Array.isArray(value) ? value.map((item) => text(item) ?? "") : [];
}

function files(value: YamlValue | undefined): TestFile[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((file) => ({
    path: text(file.path) ?? "",
    contents: text(file.contents) ?? "",
    executable: file.executable === true,
  }));
}

function toCase(record: YamlRecord, common: readonly TestFile[]): CompatCase {
  const env: Record<string, string> = {};
  if (isRecord(record.env)) {
    for (const [key, value] of Object.entries(record.env)) env[key] = text(value) ?? "";
  }
  const exit = record.expected_exit_code ?? record.expect_status;
  return {
    name: text(record.name) ?? "(unnamed)",
    stdin: text(record.stdin),
    args: [...list(record.args), ...list(record.additional_test_args)],
    env,
    homeDir: text(record.home_dir),
    testFiles: [...common, ...files(record.test_files)],
    ignoreStdout: record.ignore_stdout === true,
    ignoreStderr: record.ignore_stderr === true,
    ignoreExitStatus: record.ignore_exit_status === true,
    ignoreWhitespace: record.ignore_whitespace === true,
    expectedStdout: text(record.expected_stdout),
    expectedExitCode: typeof exit === "number" ? exit : null,
    skip: record.skip === true,
    pty: record.pty === true,
    incompatibleOs: list(record.incompatible_os),
    incompatiblePlatforms: list(record.incompatible_platforms),
    minOracleVersion: text(record.min_oracle_version),
    maxOracleVersion: text(record.max_oracle_version),
  };
}

/** Parse one corpus file's text. */
export function readCompatFile(path: string, source: string): CompatFile {
  const document = parseYaml(source);
  if (!isRecord(document)) throw new Error(`${path}: not a mapping`);
  const common = files(document.common_test_files);
  const cases = Array.isArray(document.cases)
    ? document.cases.filter(isRecord).map((item) => toCase(item, common))
    : [];
  return { path, name: text(document.name) ?? path, cases };
}

function yamlFiles(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((entry) => {
      const path = join(directory, entry);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return entry.endsWith(".yaml") || entry.endsWith(".yml") ? [path] : [];
    });
}

/** Every `*.yaml` under `root`, in path order. */
export function loadCorpus(root: string): CompatFile[] {
  return yamlFiles(root).map((path) =>
    readCompatFile(relative(root, path), readFileSync(path, "utf8")),
  );
}
