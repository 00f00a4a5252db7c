import {
  type Caveats,
  caveats,
  defaultPathPolicy,
  only,
  Registry,
  type Tool,
  type ToolEnvelope,
} from "@agent-bridle/core";
import {
  bindNetTestHooks,
  createHostBackend,
  type NetTestHooks,
  type ResourceLimits,
} from "@agent-bridle/sandbox";
import { createBrushShellTool } from "@agent-bridle/shell-brush";
import { createHostShellTool } from "@agent-bridle/shell-host";
import { createShellTool } from "@agent-bridle/shell-safe";
import type { Fixture } from "./fixture.js";

/** A `HOME` that exists nowhere (its credential names are blocked by the default policy). */
export const HOME = "/nonexistent-home";

/** The three shell engines, by the names the test titles use. */
export type EngineName = "bash" | "safe" | "host";
export const ENGINES: readonly EngineName[] = ["bash", "safe", "host"];

/** Per-call shell input common to every engine (spec §14). */
export interface ShellCall {
  readonly cmd?: string;
  readonly program?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  readonly timeout_secs?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the engines' input types differ; the registry validates.
type AnyTool = Tool<any, ToolEnvelope>;

function createTool(
  engine: EngineName,
  resourceLimits?: ResourceLimits,
  netTestHooks?: NetTestHooks,
): AnyTool {
  // The test resolver is bound to this backend object alone (test code only).
  const backend = createHostBackend();
  const common = {
    home: HOME,
    tmpdir: "/tmp",
    backend: netTestHooks ? bindNetTestHooks(backend, netTestHooks) : backend,
    ...(resourceLimits ? { resourceLimits } : {}),
  };
  if (engine === "bash") return createBrushShellTool({ ...common, warm: false });
  if (engine === "safe") return createShellTool(common);
  return createHostShellTool(common);
}

/**
 * One engine over one fixture: a registry whose path policy is the Linux default plus
 * `$B` (and `blocked`), and a `run` that mints a fresh grant per call — the catalogue's
 * default shell grants (exec `echo`, `cat`, `ls` plus `exec`; fs_read and fs_write `$A`;
 * no network) with `grant` replacing axes — and `cwd` `$A` unless the call says otherwise.
 * When programs beyond the defaults are granted, fs_read also covers `/usr`: the bash
 * engine looks a program up through the path judge, so a granted program must be readable.
 * `resourceLimits` is the engine's `resourceLimits` option (the sandbox's limits of every call);
 * `netTestHooks` the egress proxy's test resolver (names to loopback test servers), bound
 * to the engine's backend object with `bindNetTestHooks` (no configuration reaches it).
 */
export function engineOver(
  engine: EngineName,
  fixture: Fixture,
  blocked: readonly string[] = [],
  options: {
    readonly resourceLimits?: ResourceLimits | undefined;
    readonly netTestHooks?: NetTestHooks | undefined;
  } = {},
) {
  const tool = createTool(engine, options.resourceLimits, options.netTestHooks);
  const base = defaultPathPolicy({ platform: "linux", home: HOME });
  const registry = Registry.builder()
    .tool(tool)
    .pathPolicy({
      blocked: [...base.blocked, fixture.B, ...blocked],
      writeBlocked: base.writeBlocked,
    })
    .build();
  const grantOf = (exec: readonly string[], grant: Partial<Caveats>) =>
    caveats({
      exec: only(["echo", "cat", "ls", ...exec]),
      fs_read: only(exec.length > 0 ? [fixture.A, "/usr"] : [fixture.A]),
      fs_write: only([fixture.A]),
      net: only([]),
      ...grant,
    });
  const run = async (
    call: ShellCall,
    options: { exec?: readonly string[]; grant?: Partial<Caveats>; noCwd?: boolean } = {},
  ): Promise<Record<string, unknown>> =>
    (await registry.dispatch(
      "shell",
      options.noCwd ? call : { cwd: fixture.A, ...call },
      registry.mintGrant(grantOf(options.exec ?? [], options.grant ?? {})),
    )) as Record<string, unknown>;
  return { engine, run, close: () => registry.close() };
}
