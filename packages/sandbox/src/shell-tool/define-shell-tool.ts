/**
 * The shell-tool kit: what every shell engine's tool does the same way, so that an
 * engine supplies only its description, its input schema and its `run`. The kit checks
 * the common options, merges the limits, makes the sandbox, and around each call joins
 * the observers, starts the clock and hands `run` a `ShellCall` (ADR 0027).
 */
import { isAbsolute } from "node:path";
import {
  ConfigurationError,
  defineTool,
  joinOutputObservers,
  SHELL_TOOL_ANNOTATIONS,
  type ShellLimits,
  type Tool,
  type ToolEnvelope,
  ToolFailedError,
} from "@agent-bridle/core";
import { createHostBackend } from "../backend/host-backend.js";
import { createSandbox, type Sandbox } from "../funnel/sandbox.js";
import type { CommonShellToolOptions } from "./common-shell-tool-options.js";
import { type ShellCall, type ShellInvocation, shellCall } from "./shell-call.js";

/** What the kit made from the options, for the engine's own setup. */
export interface ShellToolSetup<L extends ShellLimits> {
  readonly limits: L;
  readonly sandbox: Sandbox;
}

/** What an engine supplies. */
export interface ShellEngine<I> {
  /** The engine's name in the disclosure (`brush`, `sandbox-host`); none for the safe engine. */
  readonly engine?: string;
  readonly description: string;
  readonly inputSchema: Tool<I, ToolEnvelope>["inputSchema"];
  /** The approval hook's view of a request (never runs anything). */
  inspect?(input: I): Promise<unknown>;
  /** Releases what the engine holds (`registry.close()` calls it). */
  close?(): Promise<void>;
  run(call: ShellCall<I>): Promise<ShellInvocation>;
}

interface CommonInput {
  readonly cwd?: string | undefined;
  readonly timeout_secs?: number | undefined;
}

/** Refuses options no engine can serve (relative `baseDir`, `home` or `tmpdir`). */
function checkOptions(options: CommonShellToolOptions<ShellLimits>): void {
  if (options.baseDir !== undefined && !isAbsolute(options.baseDir)) {
    throw new ConfigurationError("baseDir must be an absolute path");
  }
  if (!isAbsolute(options.home) || !isAbsolute(options.tmpdir)) {
    throw new ConfigurationError("home and tmpdir must be absolute paths");
  }
}

/**
 * A shell tool from the common options, the engine's default limits and the engine
 * (made once the limits and the sandbox exist; it may refuse its own options by throwing
 * a `ConfigurationError`). Every call is dispatched through `invokeAccounted`, asks
 * approval after the engine's checks and carries the shell tools' annotations.
 */
export function defineShellTool<I extends CommonInput, L extends ShellLimits>(
  options: CommonShellToolOptions<L>,
  defaultLimits: L,
  engineOf: (setup: ShellToolSetup<L>) => ShellEngine<I>,
): Tool<I, ToolEnvelope> {
  checkOptions(options);
  const limits: L = { ...defaultLimits, ...options.limits };
  const sandbox = createSandbox({
    backend: options.backend ?? createHostBackend(),
    home: options.home,
    tmpdir: options.tmpdir,
    limits: options.resourceLimits,
    gitIdentity: options.gitIdentity,
  });
  const engine = engineOf({ limits, sandbox });
  const setting = { engine: engine.engine, baseDir: options.baseDir, limits };
  return defineTool<I, ToolEnvelope>({
    name: options.name ?? "shell",
    description: engine.description,
    inputSchema: engine.inputSchema,
    annotations: SHELL_TOOL_ANNOTATIONS,
    approvesAfterChecks: true,
    ...(engine.inspect ? { inspect: engine.inspect.bind(engine) } : {}),
    ...(engine.close ? { close: engine.close.bind(engine) } : {}),
    async invoke() {
      throw new ToolFailedError("a shell tool is dispatched through invokeAccounted");
    },
    invokeAccounted: (input, cx, { signal, observer, approve }) =>
      engine.run(
        shellCall(setting, input, cx, {
          signal,
          approve,
          observer: joinOutputObservers(options.observer, observer),
        }),
      ),
  });
}
