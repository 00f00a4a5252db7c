import { TextDecoder } from "node:util";
import {
  ConfigurationError,
  Grant,
  grantedProgramsText,
  type ModelResult,
  modelResultOf,
  modelResultOfError,
  type Registry,
  SHELL_TOOL_NAME,
  type ShellOutputObserver,
  type ToolAnnotations,
} from "agent-bridle";

/** What every adapter is built from: one registry and the one grant all its calls use. */
export interface AdapterOptions {
  /** The registry whose tools the framework gets (`registry()` of `agent-bridle`). */
  readonly registry: Registry;
  /**
   * The one grant every call of this adapter instance dispatches under. It is never
   * widened or re-minted: its `max_calls` budget is shared by all the instance's tools.
   */
  readonly grant: Grant;
  /** Only these tools (by registry name); default every tool of the registry. */
  readonly tools?: readonly string[] | undefined;
  /** UTF-8 bytes of each of stdout and stderr a model receives (head and tail). Default 16 KiB. */
  readonly maxModelOutputBytes?: number | undefined;
}

/** One chunk of live output, decoded (a code point split across chunks is held back). */
export type LiveOutput = (stream: "stdout" | "stderr", text: string) => void;

export interface BoundCallOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onOutput?: LiveOutput | undefined;
}

/** One registry tool bound to the adapter's grant: its advertised definition and a call. */
export interface BoundTool {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema the registry advertises (from the tool's zod schema, as over MCP). */
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: ToolAnnotations;
  /**
   * Dispatches under the grant and answers with what the model reads. Refusals and
   * failures are results, not throws; only an abort of `signal` rejects (after the
   * engine has ended the call's processes).
   */
  call(args: unknown, options?: BoundCallOptions): Promise<ModelResult>;
}

function liveObserver(onOutput: LiveOutput): ShellOutputObserver {
  const decoders = new Map<string, TextDecoder>();
  return (id, stream, chunk) => {
    const key = `${id}:${stream}`;
    let decoder = decoders.get(key);
    if (decoder === undefined) {
      decoder = new TextDecoder("utf-8");
      decoders.set(key, decoder);
    }
    const text = decoder.decode(chunk, { stream: true });
    if (text !== "") onOutput(stream, text);
  };
}

function selectedDefinitions(registry: Registry, names: readonly string[] | undefined) {
  const definitions = registry.toolDefinitions();
  if (names === undefined) return definitions;
  for (const name of names) {
    if (!registry.contains(name))
      throw new ConfigurationError(`the registry has no tool named ${JSON.stringify(name)}`);
  }
  return definitions.filter((definition) => names.includes(definition.name));
}

/**
 * The registry's tools bound to one grant, the common part of every framework adapter.
 * Throws `ConfigurationError` when `grant` is not a minted `Grant` or a named tool is
 * missing.
 */
export function bindTools(options: AdapterOptions): readonly BoundTool[] {
  const { registry, grant } = options;
  if (!(grant instanceof Grant))
    throw new ConfigurationError(
      "grant must be a Grant minted by registry.mintGrant(caveats(...)); it is used as given",
    );
  const modelOptions = { maxModelOutputBytes: options.maxModelOutputBytes };
  return Object.freeze(
    selectedDefinitions(registry, options.tools).map((definition) =>
      Object.freeze({
        name: definition.name,
        description:
          definition.name === SHELL_TOOL_NAME
            ? `${definition.description} ${grantedProgramsText(grant.caveats.exec)}`
            : definition.description,
        inputSchema: definition.inputSchema,
        annotations: definition.annotations,
        async call(args: unknown, call: BoundCallOptions = {}): Promise<ModelResult> {
          const observer = call.onOutput === undefined ? undefined : liveObserver(call.onOutput);
          try {
            const envelope = await registry.dispatch(definition.name, args, grant, {
              ...(call.signal === undefined ? {} : { signal: call.signal }),
              observer,
            });
            return modelResultOf(envelope, modelOptions);
          } catch (error) {
            if (call.signal?.aborted === true) throw error;
            return modelResultOfError(error);
          }
        },
      }),
    ),
  );
}
