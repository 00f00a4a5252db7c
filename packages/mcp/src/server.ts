import { readFileSync } from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  BridleError,
  type Grant,
  grantedProgramsText,
  type Registry,
  SHELL_TOOL_NAME,
} from "agent-bridle";
import { CallLimiter } from "./call-limiter.js";
import { closeRegistry } from "./close-registry.js";
import { DEFAULT_MAX_FRAME_BYTES, FrameLimiter } from "./frame-limiter.js";
import { createProgressStream, type ProgressStream } from "./progress.js";
import { resultOfEnvelope, resultOfError, type ToolResult } from "./render.js";

export const SERVER_NAME = "agent-bridle-mcp";
export const DEFAULT_MAX_CONCURRENT_CALLS = 4;
const MAX_WAITING_CALLS = 64;

/** This package's version (the server's `serverInfo.version`). */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

export interface ServeOptions {
  /** The registry to serve; closed when serving ends. */
  readonly registry: Registry;
  /** The one session grant: its budget spans the whole session. */
  readonly grant: Grant;
  readonly input?: Readable | undefined;
  readonly output?: Writable | undefined;
  /** Largest JSON-RPC line, newline excluded. Default 16 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** Calls run at once; up to 64 more wait. Default 4. */
  readonly maxConcurrentCalls?: number | undefined;
  /** UTF-8 bytes of each of stdout and stderr a model receives (head and tail). Default 16 KiB. */
  readonly maxModelOutputBytes?: number | undefined;
  /** A call with a progress token silent this long gets a heartbeat. Default 10 s. */
  readonly heartbeatMs?: number | undefined;
  /**
   * When the client offers MCP roots: the registry to serve under them (their absolute
   * directories, `file:` roots only), built when the session starts and again when the
   * client says the list changed. It must never widen the grant (the session grant is
   * kept). Absent: roots are not asked for.
   */
  readonly registryForRoots?: ((roots: readonly string[]) => Registry) | undefined;
  /**
   * Set when the session grant is deny-all because nothing was configured: a refused call
   * says this instead of "call budget exhausted".
   */
  readonly denyAllNotice?: string | undefined;
}

/** The absolute directories of `file:` roots; other roots are ignored. */
export function rootDirectories(roots: readonly { readonly uri: string }[]): string[] {
  const directories: string[] = [];
  for (const { uri } of roots) {
    if (!uri.startsWith("file:")) continue;
    try {
      const directory = fileURLToPath(uri);
      if (path.isAbsolute(directory)) directories.push(directory);
    } catch {
      // Not a local file URL: ignored.
    }
  }
  return directories;
}

export interface RunningServer {
  /**
   * Resolves when the input ended and the calls already received were answered, or when
   * `close()` was called (which aborts the calls in flight).
   */
  readonly closed: Promise<void>;
  /** Aborts the calls in flight, closes the connection and the registry. */
  close(): Promise<void>;
}

/**
 * Serves the registry over MCP on stdio with the official SDK (`McpServer`; protocol
 * version negotiation, lifecycle and JSON-RPC errors are the SDK's). `tools/list`
 * advertises the registry's definitions (name, description, JSON Schema, annotations);
 * `tools/call` dispatches under the session grant and always answers with a tool result
 * (`resultOfEnvelope`): a run's exit code, stdout and stderr (capped for the model) with
 * its denials appended; `isError: true` when nothing ran (a refusal, every thrown refusal:
 * unknown tool, spent budget, invalid arguments) or the call timed out. A call with a
 * progress token gets its live output and heartbeats as progress. Client cancellation
 * aborts the call (the engine kills its processes).
 */
export async function serveMcp(options: ServeOptions): Promise<RunningServer> {
  const { grant } = options;
  let registry = options.registry;
  const registries: Registry[] = [registry];
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const limiter = new CallLimiter(
    options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS,
    MAX_WAITING_CALLS,
  );
  const inFlight = new Set<AbortController>();
  const pending = new Set<Promise<ToolResult>>();

  const mcp = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });
  // The registry owns the schemas and validates arguments itself (a refusal names the
  // field and the limit), so the tool handlers are installed on the protocol server
  // rather than through `registerTool`, which would validate with its own zod copy. The
  // tool set is fixed for the session: no list-changed notifications.
  mcp.server.registerCapabilities({ tools: { listChanged: false } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: registry.toolDefinitions().map((definition) => ({
      name: definition.name,
      description:
        definition.name === SHELL_TOOL_NAME
          ? `${definition.description} ${grantedProgramsText(grant.caveats.exec)}`
          : definition.description,
      inputSchema: definition.inputSchema as { type: "object"; [key: string]: unknown },
      annotations: { ...definition.annotations },
    })),
  }));
  // Roots are asked for once the client is initialized (and again when they change);
  // calls wait for the answer, so none runs under the configuration the roots refine.
  let rootsReady: Promise<void> = Promise.resolve();
  const refreshRoots = () => {
    const factory = options.registryForRoots;
    if (factory === undefined || mcp.server.getClientCapabilities()?.roots === undefined) return;
    rootsReady = (async () => {
      try {
        const { roots } = await mcp.server.listRoots(undefined, { timeout: 10_000 });
        const directories = rootDirectories(roots);
        if (directories.length === 0) return;
        const next = factory(directories);
        registries.push(next);
        registry = next;
      } catch {
        // No answer: the configuration stands (roots only ever narrow it).
      }
    })();
  };
  mcp.server.oninitialized = refreshRoots;
  mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, () => refreshRoots());
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const controller = new AbortController();
    const abort = () => controller.abort(extra.signal.reason);
    if (extra.signal.aborted) abort();
    else extra.signal.addEventListener("abort", abort, { once: true });
    inFlight.add(controller);
    // Live output as progress notifications only when the client asked (a progress token).
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : createProgressStream({
            token,
            send: (notification) => extra.sendNotification(notification),
            heartbeatMs: options.heartbeatMs,
          });
    const call = callTool(
      request.params.name,
      request.params.arguments ?? {},
      controller.signal,
      progress,
    );
    pending.add(call);
    try {
      return await call;
    } finally {
      progress?.discard();
      extra.signal.removeEventListener("abort", abort);
      inFlight.delete(controller);
      pending.delete(call);
    }
  });

  async function callTool(
    name: string,
    args: unknown,
    signal: AbortSignal,
    progress: ProgressStream | undefined,
  ): Promise<ToolResult> {
    let release: (() => void) | undefined;
    try {
      release = await limiter.acquire(signal);
    } catch (error) {
      return resultOfError(error);
    }
    if (release === undefined) {
      return {
        content: [{ type: "text", text: "denied: the server is busy; retry the call later" }],
        isError: true,
      };
    }
    try {
      await rootsReady;
      const envelope = await registry.dispatch(name, args, grant, {
        signal,
        observer: progress?.observer,
      });
      if (progress !== undefined) await sendRemainingProgress(progress, signal);
      return resultOfEnvelope(envelope, { maxModelOutputBytes: options.maxModelOutputBytes });
    } catch (error) {
      if (
        options.denyAllNotice !== undefined &&
        BridleError.isInstance(error) &&
        error.code === "BUDGET_EXHAUSTED"
      ) {
        return {
          content: [{ type: "text", text: options.denyAllNotice }],
          structuredContent: { error: { code: error.code, message: options.denyAllNotice } },
          isError: true,
        };
      }
      return resultOfError(error);
    } finally {
      release();
    }
  }

  /**
   * The engine has finished the output session before dispatch returns, and the progress
   * observer never blocks its queue, so one macrotask turn delivers every queued chunk;
   * then the rest is sent, before the result. A cancelled call sends nothing more.
   */
  async function sendRemainingProgress(progress: ProgressStream, signal: AbortSignal) {
    await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) progress.discard();
    else await progress.close();
  }

  let transport: StdioServerTransport | undefined;
  const frames = new FrameLimiter(maxFrameBytes, () => {
    const answer = {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: `Invalid Request: frame exceeds ${maxFrameBytes} bytes` },
    };
    void transport?.send(answer as unknown as JSONRPCMessage).catch(() => {});
  });
  // One frame per chunk, each at most maxFrameBytes + 1: the SDK's buffer never fills.
  transport = new StdioServerTransport(frames, output, { maxBufferSize: maxFrameBytes + 2 });
  transport.onerror = () => {
    // Unparsable frames are the SDK's to handle; nothing is written to stdout here.
  };

  let closing: Promise<void> | undefined;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const close = (): Promise<void> => {
    closing ??= (async () => {
      for (const controller of inFlight) controller.abort(new Error("the server is closing"));
      input.unpipe(frames);
      await mcp.close().catch(() => {});
      for (const served of registries) await closeRegistry(served);
      markClosed();
    })();
    return closing;
  };
  // End of input is the client's shutdown signal: calls already received finish and are
  // answered, then the registry closes. Signals and stream errors abort them instead.
  const drainThenClose = async () => {
    // The SDK starts a handler a few microtasks after its frame arrives and sends the
    // response a few microtasks after the handler returns: yield a macrotask around each
    // wait so that every call received is started, finished and answered before closing.
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    await nextTurn();
    while (pending.size > 0) {
      await Promise.allSettled([...pending]);
      await nextTurn();
    }
    await close();
  };
  frames.on("end", () => void drainThenClose());
  input.on("error", () => void close());
  output.on("error", () => void close());
  input.pipe(frames);
  await mcp.connect(transport);
  return { closed, close };
}
