import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type JSONRPCMessage, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll } from "vitest";
import { buildPackage, serverBin } from "./helpers.js";

/** The SDK's client connected to one spawned server, as the end-to-end tests drive it. */
export interface McpSession {
  readonly client: Client;
  /** Every message the client read after connecting, in order (progress notifications…). */
  readonly received: JSONRPCMessage[];
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** The server process's pid (−1 if unknown). */
  readonly pid: number;
}

export interface McpSessionOptions {
  /** The client's name in `initialize`; default `bridle-e2e`. */
  readonly name?: string;
  /**
   * Offer the `roots` capability (with `listChanged`) and answer `roots/list` with these
   * directories as `file:` URIs, read when the server asks (so a test can change them).
   */
  readonly roots?: { current: readonly string[] };
  /** The server's command and arguments; default this package's built `agent-bridle-mcp`. */
  readonly command?: string;
  readonly args?: readonly string[];
}

const openSessions: McpSession[] = [];

function spawnServer(env: Record<string, string>, options: McpSessionOptions) {
  const transport = new StdioClientTransport({
    command: options.command ?? process.execPath,
    args: [...(options.args ?? [serverBin])],
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const roots = options.roots;
  const client = new Client(
    { name: options.name ?? "bridle-e2e", version: "0.0.0" },
    roots === undefined ? {} : { capabilities: { roots: { listChanged: true } } },
  );
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.current.map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })),
    }));
  }
  return { transport, client, stderr: () => stderr };
}

/**
 * Spawns the server with `env` (nothing inherited: see `serverEnv`), connects the SDK's
 * client and records what it reads. Closed after each test by `useBuiltServer()`.
 */
export async function startSession(
  env: Record<string, string>,
  options: McpSessionOptions = {},
): Promise<McpSession> {
  const { transport, client, stderr } = spawnServer(env, options);
  await client.connect(transport);
  const received: JSONRPCMessage[] = [];
  const deliver = transport.onmessage;
  // The stdio transport hands each message over with one argument.
  transport.onmessage = (message: JSONRPCMessage) => {
    received.push(message);
    deliver?.(message);
  };
  const session = { client, received, stderr, pid: transport.pid ?? -1 };
  openSessions.push(session);
  return session;
}

/** A server that must refuse to start: the connection fails; returns what it wrote to stderr. */
export async function refusedStart(env: Record<string, string>): Promise<string> {
  const { transport, client, stderr } = spawnServer(env, {});
  let connected = false;
  try {
    await client.connect(transport);
    connected = true;
  } catch {
    // expected: the server exited before answering initialize
  }
  if (connected) {
    await client.close();
    throw new Error("the server started although it should have refused");
  }
  return stderr();
}

/** The SDK's client alone (see `startSession`). */
export async function startClient(env: Record<string, string>, name?: string): Promise<Client> {
  return (await startSession(env, name === undefined ? {} : { name })).client;
}

/** Closes every session the file's tests started. */
export async function closeSessions(): Promise<void> {
  for (const { client } of openSessions.splice(0)) await client.close();
}

/**
 * The hooks of an end-to-end test file: build the package once (the tests spawn its
 * `dist/`, as a client would) and close every session after each test.
 */
export function useBuiltServer(): void {
  beforeAll(() => buildPackage(), 120_000);
  afterEach(() => closeSessions());
}
