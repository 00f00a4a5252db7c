import { stat, writeFile } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { run, tail } from "./run.js";

/** The installed launcher for this machine, as a consumer's `node_modules` holds it. */
export function installedLauncherPath(projectDir: string, arch: string = process.arch): string {
  return join(
    projectDir,
    "node_modules/@agent-bridle/sandbox/prebuilt",
    `linux-${arch}`,
    "bridle-launch",
  );
}

/** What the installed packages did in the consumer project, each checked by `useInstalled`. */
export interface InstalledUse {
  /** The launcher's mode right after `npm install` (before anything used it). */
  readonly launcherModeAfterInstall: number;
  readonly doctor: { readonly exitCode: number | null; readonly launcherLine: string };
  readonly shell: {
    readonly sandbox_kind: string;
    readonly exit_code: number;
    readonly stdout: string;
    readonly enforcement: Record<string, string>;
  };
  readonly mcp: {
    readonly tools: readonly string[];
    readonly isError: boolean;
    readonly text: string;
    readonly sandbox_kind: string;
  };
}

const GREETING = "hello from an installed agent-bridle";

/** The grant every check uses: the work directory, the program directories, three programs. */
function grantFor(work: string): Record<string, unknown> {
  return {
    fs_read: { only: [work, "/usr", "/lib", "/lib64", "/bin"] },
    fs_write: { only: [work] },
    exec: { only: ["cat", "grep", "wc"] },
    net: { only: [] },
    max_calls: { at_most: 10 },
    valid_for_generation: "all",
  };
}

const SHELL_CALL = `
import { caveats, registry } from "agent-bridle";
const [work, grant] = [process.argv[1], JSON.parse(process.argv[2])];
const tools = registry({ baseDir: work });
const result = await tools.dispatch(
  "shell",
  { cmd: "grep -c installed hello.txt > count.txt && cat hello.txt count.txt" },
  tools.mintGrant(caveats(grant)),
);
await tools.close();
process.stdout.write(JSON.stringify(result));
`;

const MCP_CALL = `
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const [bin, env] = [process.argv[1], JSON.parse(process.argv[2])];
const client = new Client({ name: "pack-check", version: "0.0.0" });
await client.connect(new StdioClientTransport({ command: bin, args: [], env, stderr: "ignore" }));
const tools = (await client.listTools()).tools.map((tool) => tool.name);
const result = await client.callTool({ name: "shell", arguments: { cmd: "cat hello.txt" } });
await client.close();
process.stdout.write(JSON.stringify({
  tools,
  isError: result.isError === true,
  text: result.content.map((part) => part.text ?? "").join("\\n"),
  sandbox_kind: result.structuredContent?.sandbox_kind,
}));
`;

async function nodeScript(projectDir: string, script: string, args: readonly string[]) {
  const result = await run(process.execPath, ["--input-type=module", "-e", script, ...args], {
    cwd: projectDir,
  });
  if (result.code !== 0) {
    throw new Error(`pack check: a script in the consumer project failed\n${tail(result.stderr)}`);
  }
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/**
 * Uses the installed packages as a user would (issue 17 point 1), in order: the
 * launcher's mode as npm left it, `bridle doctor`, a confined `shell` call through the
 * facade, and the MCP server driven by the SDK's client (`tools/list`, a `shell` call).
 * `work` is an empty directory for the calls. Throws when a script cannot run at all; the
 * caller judges what each step reported.
 */
export async function useInstalled(
  projectDir: string,
  home: string,
  work: string,
): Promise<InstalledUse> {
  await writeFile(join(work, "hello.txt"), `${GREETING}\n`);
  const launcherModeAfterInstall = (await stat(installedLauncherPath(projectDir))).mode & 0o777;
  const env = {
    PATH: [dirname(process.execPath), process.env.PATH ?? "/usr/bin:/bin"].join(delimiter),
    HOME: home,
  };
  const doctorRun = await run(join(projectDir, "node_modules/.bin/bridle"), ["doctor"], {
    cwd: work,
    env,
  });
  const launcherLine =
    doctorRun.stdout.split("\n").find((line) => line.startsWith("launcher:")) ??
    `(no launcher line)\n${tail(doctorRun.stdout + doctorRun.stderr)}`;
  const grant = grantFor(work);
  const shell = await nodeScript(projectDir, SHELL_CALL, [work, JSON.stringify(grant)]);
  const mcp = await nodeScript(projectDir, MCP_CALL, [
    join(projectDir, "node_modules/.bin/agent-bridle-mcp"),
    JSON.stringify({
      ...env,
      AGENT_BRIDLE_CAVEATS: JSON.stringify(grant),
      AGENT_BRIDLE_BASE_DIR: work,
    }),
  ]);
  return {
    launcherModeAfterInstall,
    doctor: { exitCode: doctorRun.code, launcherLine },
    shell: shell as unknown as InstalledUse["shell"],
    mcp: mcp as unknown as InstalledUse["mcp"],
  };
}

/** Why the installed packages did not work as a user needs them to; empty when they did. */
export function installedUseFailures(use: InstalledUse): string[] {
  const failures: string[] = [];
  if (use.doctor.exitCode !== 0)
    failures.push(`bridle doctor exited ${use.doctor.exitCode}: ${use.doctor.launcherLine}`);
  if (
    !/\/prebuilt\/linux-[a-z0-9]+\/bridle-launch \(prebuilt, checksum verified\)/.test(
      use.doctor.launcherLine,
    )
  )
    failures.push(`bridle doctor did not report the shipped launcher: ${use.doctor.launcherLine}`);
  const { shell, mcp } = use;
  if (
    shell.sandbox_kind !== "landlock" ||
    shell.exit_code !== 0 ||
    shell.stdout !== `${GREETING}\n1\n`
  )
    failures.push(`the confined shell call did not run under Landlock: ${JSON.stringify(shell)}`);
  if (shell.enforcement?.fs_write !== "kernel")
    failures.push(
      `the shell call's fs_write was not held by the kernel: ${JSON.stringify(shell.enforcement)}`,
    );
  if (!mcp.tools.includes("shell") || !mcp.tools.includes("read_file"))
    failures.push(`the MCP server's tools/list lacks shell or read_file: ${mcp.tools.join(", ")}`);
  if (mcp.isError || !mcp.text.includes(GREETING) || mcp.sandbox_kind !== "landlock")
    failures.push(`the MCP server's shell call did not run under Landlock: ${JSON.stringify(mcp)}`);
  return failures;
}
