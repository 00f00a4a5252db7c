import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  BridleError,
  type Caveats,
  caveatsToJson,
  parseCaveats,
  type Registry,
  registry,
  top,
} from "agent-bridle";
import { closeRegistry } from "./close-registry.js";
import { isEngineName } from "./config-file.js";
import { doctor, doctorExitCode, renderDoctor } from "./doctor.js";
import { CAVEATS_VARIABLE, configPath, resolveGrant } from "./grant-source.js";
import { inspectCommandLine, renderInspectionSummary } from "./inspect-command.js";
import { SERVER_VERSION } from "./server.js";
import { registryOptionsFor } from "./session.js";
import { envelopeContent, summarizeEnvelope } from "./summary.js";

export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Text for `bridle write <path> -` (read lazily). */
  readonly readStdin?: () => Promise<string>;
  /** Where `~/.agent-bridle/config.toml` is looked for; absent: no config file. */
  readonly home?: string | undefined;
}

export const USAGE = `bridle — run one leashed tool call from the terminal

usage:
  bridle run [--grant <json|file>] [--engine brush|safe|host] [--cwd <dir>] [--timeout <secs>] [--json] -- '<cmd>'
  bridle read  <path> [--grant <json|file>] [--json]
  bridle ls    [<path>] [--grant <json|file>] [--json]
  bridle stat  <path> [--grant <json|file>] [--json]
  bridle write <path> <text|-> [--append | --create] [--grant <json|file>] [--json]
  bridle inspect [--json] -- '<cmd>'   what the script would run, parsed only (nothing runs)
  bridle doctor [--json]
  bridle mcp            serve MCP on stdin/stdout (the same server as agent-bridle-mcp)

--grant   the caveats as JSON ({"fs_read":…,"fs_write":…,"exec":…,"net":…,"max_calls":…,
          "valid_for_generation":…}) or a file holding that JSON. Without it, a demo grant:
          read and write the current directory, a few everyday programs, no network.
--engine  which engine runs 'run': "brush" (default where supported: Linux, macOS; the
          bash engine, full bash in a confined worker, every program checked before
          it starts, files and network bounded by the kernel), "safe" (argv and a
          bash subset it interprets exactly or refuses, every program and path checked
          before anything runs; the default elsewhere) or "host" (full host bash,
          confined by the kernel backend only).
--json    print the raw result envelope (for inspect: the shell_inspection) instead of
          the summary. Without it, stdout carries only the content (the command's
          output while it runs, a file's text, a listing) and the summary goes to stderr.

Without --grant: AGENT_BRIDLE_CAVEATS, else [caveats] of ~/.agent-bridle/config.toml
(the MCP server's grant), else the demo grant. Relative paths resolve against the
current directory. bridle <command> --help shows one command; bridle --version the version.
`;

const GRANT_HELP = `  --grant <json|file>  the caveats as JSON or a file holding it (default: AGENT_BRIDLE_CAVEATS,
                       then [caveats] of ~/.agent-bridle/config.toml, then the demo grant)
  --json               print the raw result envelope`;

/** One command's usage (`bridle <command> --help`). */
export const COMMAND_USAGE: Readonly<Record<string, string>> = Object.freeze({
  run: `usage: bridle run [--grant <json|file>] [--engine brush|safe|host] [--cwd <dir>] [--timeout <secs>] [--json] -- '<cmd>'

Runs one shell call under the grant. The command's output is shown while it runs (stdout
on stdout, stderr on stderr), then a summary on stderr; exits with the command's status.
${GRANT_HELP}
  --engine             brush (the bash engine, default on Linux/macOS), safe or host
  --cwd <dir>          where the command runs (default: the current directory)
  --timeout <secs>     seconds before the whole process tree is killed
`,
  read: `usage: bridle read <path> [--grant <json|file>] [--json]

Prints the file's text on stdout (pipe it); what was read and which boundary held on stderr.
${GRANT_HELP}
`,
  ls: `usage: bridle ls [<path>] [--grant <json|file>] [--json]

Lists a directory on stdout (type, size, name); the summary on stderr.
${GRANT_HELP}
`,
  stat: `usage: bridle stat <path> [--grant <json|file>] [--json]

Prints type, size, mode (octal), times and link target on stdout.
${GRANT_HELP}
`,
  write: `usage: bridle write <path> <text|-> [--append | --create] [--grant <json|file>] [--json]

Writes text (or stdin with -) atomically; --append adds, --create refuses to replace.
${GRANT_HELP}
`,
  inspect: `usage: bridle inspect [--json] -- '<cmd>'

Shows what a script would run (programs, argv as the programs receive it, redirects,
substitutions), parsed only: nothing runs.
`,
  doctor: `usage: bridle doctor [--json]

Shows what this host can enforce: the launcher, each layer of the kernel boundary, the
limits, what each axis would report per engine, and a real probe call. Exits 1 when the
launcher is missing or cannot run on a host that needs it.
`,
  mcp: `usage: bridle mcp

Serves MCP on stdin/stdout (the same server as agent-bridle-mcp). The grant comes from
AGENT_BRIDLE_CAVEATS, else [caveats] of ~/.agent-bridle/config.toml, else deny-all.
`,
});

/** Everyday programs of the demo grant. */
export const DEMO_PROGRAMS = Object.freeze([
  "cat",
  "echo",
  "grep",
  "head",
  "ls",
  "pwd",
  "sort",
  "tail",
  "true",
  "wc",
]);

export function demoGrant(cwd: string): Caveats {
  return parseCaveats({
    ...top(),
    fs_read: { only: [cwd] },
    fs_write: { only: [cwd] },
    exec: { only: [...DEMO_PROGRAMS] },
    net: { only: [] },
  });
}

class UsageError extends Error {}
/** A grant that does not parse: the message says what is wrong, without the usage text. */
class GrantError extends Error {}

interface Parsed {
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(["--grant", "--engine", "--cwd", "--timeout"]);
const BOOLEAN_FLAGS = new Set(["--json", "--append", "--create", "--help"]);

function parse(args: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") {
      positional.push(...args.slice(index + 1));
      break;
    }
    if (VALUE_FLAGS.has(arg)) {
      const value = args[++index];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      flags.set(arg, value);
    } else if (BOOLEAN_FLAGS.has(arg)) {
      flags.set(arg, true);
    } else if (arg.startsWith("--")) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  return { positional, flags };
}

interface LoadedGrant {
  readonly caveats: Caveats;
  /** The resolved configuration, when the grant came from the environment or the file. */
  readonly resolution?: Awaited<ReturnType<typeof resolveGrant>> | undefined;
}

async function loadGrant(parsed: Parsed, io: CliIo): Promise<LoadedGrant> {
  const given = parsed.flags.get("--grant");
  if (typeof given !== "string") {
    // The MCP server's grant, so it can be tried from a terminal.
    const resolution = await resolveGrant({ env: io.env, home: io.home });
    if (resolution.provenance.kind === "env" || resolution.provenance.kind === "config-file") {
      const source =
        resolution.provenance.kind === "env"
          ? CAVEATS_VARIABLE
          : `${configPath(io.home ?? "~")} [caveats]`;
      io.stderr.write(`bridle: grant from ${source}: ${caveatsToJson(resolution.caveats)}\n`);
      return { caveats: resolution.caveats, resolution };
    }
    io.stderr.write(
      `bridle: no --grant, using the demo grant (read and write ${io.cwd}; programs ${DEMO_PROGRAMS.join(", ")}; no network)\n`,
    );
    return { caveats: demoGrant(io.cwd) };
  }
  let text = given;
  if (!given.trimStart().startsWith("{")) {
    try {
      text = await readFile(path.resolve(io.cwd, given), "utf8");
    } catch (error) {
      throw new UsageError(
        `--grant: cannot read ${given} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      );
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GrantError(`--grant is not valid JSON: ${(error as Error).message}`);
  }
  // An invalid shape is a ConfigurationError naming each field that is wrong.
  return { caveats: parseCaveats(json) };
}

function one(parsed: Parsed, what: string): string {
  const [value, ...rest] = parsed.positional;
  if (value === undefined) throw new UsageError(`missing ${what}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  return value;
}

async function dispatchAndPrint(
  built: Registry,
  tool: string,
  args: Record<string, unknown>,
  grant: Caveats,
  parsed: Parsed,
  io: CliIo,
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSignal);
  const json = parsed.flags.has("--json");
  // The readable form shows a command's output while it runs; the summary then leaves it out.
  const live = !json && tool === "shell";
  const observer = (_id: unknown, stream: "stdout" | "stderr", chunk: Uint8Array) => {
    (stream === "stdout" ? io.stdout : io.stderr).write(Buffer.from(chunk).toString("utf8"));
  };
  try {
    const envelope = (await built.dispatchOneshot(tool, args, grant, {
      signal: controller.signal,
      ...(live ? { observer } : {}),
    })) as Record<string, unknown>;
    if (json) io.stdout.write(`${JSON.stringify(envelope)}\n`);
    else {
      // stdout carries only the content, so it can be piped; the summary goes to stderr.
      io.stdout.write(envelopeContent(tool, envelope));
      io.stderr.write(summarizeEnvelope(tool, envelope, { outputShown: live, contentShown: true }));
    }
    if (typeof envelope.exit_code === "number") return envelope.exit_code;
    return envelope.denied === true ? 1 : 0;
  } finally {
    process.off("SIGINT", onSignal);
    await closeRegistry(built);
  }
}

async function runCommand(parsed: Parsed, io: CliIo): Promise<number> {
  const engine = parsed.flags.get("--engine");
  if (engine !== undefined && (!isEngineName(engine) || engine === "none")) {
    throw new UsageError(
      `--engine ${String(engine)} is not an engine; use --engine brush, --engine safe or --engine host`,
    );
  }
  const cmd = parsed.positional.join(" ");
  if (cmd.trim() === "") throw new UsageError("missing the command: bridle run -- '<cmd>'");
  const loaded = await loadGrant(parsed, io);
  const args: Record<string, unknown> = { cmd };
  const cwd = parsed.flags.get("--cwd");
  if (typeof cwd === "string") args.cwd = path.resolve(io.cwd, cwd);
  const timeout = parsed.flags.get("--timeout");
  if (typeof timeout === "string") args.timeout_secs = Number(timeout);
  // With the server's grant, the server's configuration too ([engine], [limits], [fs]).
  const configured = loaded.resolution === undefined ? {} : registryOptionsFor(loaded.resolution);
  const built = registry({
    ...configured,
    shell: engine ?? configured.shell ?? "default",
    files: false,
    baseDir: io.cwd,
    // One call, then the registry closes: no worker to pre-start for a next call.
    shellOptions: { ...configured.shellOptions, warm: false },
  });
  return dispatchAndPrint(built, "shell", args, loaded.caveats, parsed, io);
}

function inspectCommand(parsed: Parsed, io: CliIo): number {
  const cmd = parsed.positional.join(" ");
  if (cmd.trim() === "") throw new UsageError("missing the command: bridle inspect -- '<cmd>'");
  const outcome = inspectCommandLine(cmd);
  const json = parsed.flags.has("--json");
  if (!outcome.ok) {
    if (json) io.stdout.write(`${JSON.stringify({ inspection_error: outcome.error })}\n`);
    io.stderr.write(`bridle: inspection failed closed: ${outcome.error}\n`);
    return 1;
  }
  io.stdout.write(
    json ? `${JSON.stringify(outcome.inspection)}\n` : renderInspectionSummary(outcome.inspection),
  );
  return 0;
}

async function fileCommand(
  command: "read" | "ls" | "stat" | "write",
  parsed: Parsed,
  io: CliIo,
): Promise<number> {
  let tool: string;
  let args: Record<string, unknown>;
  if (command === "write") {
    const [target, text, ...rest] = parsed.positional;
    if (target === undefined || text === undefined)
      throw new UsageError("usage: bridle write <path> <text|->");
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    const content = text === "-" ? await (io.readStdin?.() ?? Promise.resolve("")) : text;
    const mode = parsed.flags.has("--append")
      ? "append"
      : parsed.flags.has("--create")
        ? "create"
        : "overwrite";
    tool = "write_file";
    args = { path: target, content, mode };
  } else if (command === "ls") {
    tool = "list_directory";
    args = { path: parsed.positional.length === 0 ? "." : one(parsed, "path") };
  } else {
    tool = command === "read" ? "read_file" : "file_info";
    args = { path: one(parsed, "path") };
  }
  const loaded = await loadGrant(parsed, io);
  const configured = loaded.resolution === undefined ? {} : registryOptionsFor(loaded.resolution);
  const built = registry({ ...configured, shell: "none", baseDir: io.cwd });
  return dispatchAndPrint(built, tool, args, loaded.caveats, parsed, io);
}

/**
 * The `bridle` command: returns the exit code (a command's own exit code for `run`, 1 for
 * a refusal, 2 for a usage or configuration error). `bridle mcp` is handled by the bin.
 */
export async function bridle(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "help" || command === "--help" || command === "-h") {
      const topic = command === "help" ? rest[0] : undefined;
      io.stdout.write((topic === undefined ? undefined : COMMAND_USAGE[topic]) ?? USAGE);
      return command === undefined ? 2 : 0;
    }
    if (command === "--version" || command === "-V" || command === "version") {
      io.stdout.write(`bridle ${SERVER_VERSION}\n`);
      return 0;
    }
    const dashes = rest.indexOf("--");
    const options = dashes < 0 ? rest : rest.slice(0, dashes);
    if (options.includes("--help") || options.includes("-h")) {
      io.stdout.write(COMMAND_USAGE[command] ?? USAGE);
      return COMMAND_USAGE[command] === undefined ? 2 : 0;
    }
    const parsed = parse(rest);
    switch (command) {
      case "run":
        return await runCommand(parsed, io);
      case "read":
      case "ls":
      case "stat":
      case "write":
        return await fileCommand(command, parsed, io);
      case "inspect":
        return inspectCommand(parsed, io);
      case "doctor": {
        const report = await doctor();
        io.stdout.write(
          parsed.flags.has("--json") ? `${JSON.stringify(report)}\n` : renderDoctor(report),
        );
        return doctorExitCode(report);
      }
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      const help = command !== undefined && COMMAND_USAGE[command] !== undefined;
      io.stderr.write(
        `bridle: ${error.message}\n(bridle ${help ? `${command} ` : ""}--help shows the usage)\n`,
      );
      return 2;
    }
    if (error instanceof GrantError) {
      io.stderr.write(`bridle: ${error.message}\n`);
      return 2;
    }
    if (BridleError.isInstance(error)) {
      io.stderr.write(`bridle: [${error.code}] ${error.message}\n`);
      return error.code.startsWith("CONFIG_") ? 2 : 1;
    }
    io.stderr.write(`bridle: ${(error as Error).message}\n`);
    return 1;
  }
}
