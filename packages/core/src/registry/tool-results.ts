import type { ToolEnvelope } from "../envelope/envelope.js";

/**
 * What `Registry.dispatch` resolves to, by the name of a built-in tool. `shell` is the
 * envelope every shell engine returns; the package that provides other built-in tools
 * adds their entries by declaration merging, as `@agent-bridle/fs-tools` does:
 *
 * ```ts
 * declare module "@agent-bridle/core" {
 *   interface ToolResults { read_file: ReadFileToolResult }
 * }
 * ```
 *
 * A name not in this map resolves to `unknown`: a custom tool's result is narrowed with
 * its own schema. The names here are the built-in tools'; a custom tool registered under
 * one of them is typed as the built-in one.
 */
export interface ToolResults {
  shell: ToolEnvelope;
}

/** The name of a tool whose result type is known. */
export type BuiltInToolName = keyof ToolResults;
