import {
  type Caveats,
  caveats,
  defaultPathPolicy,
  Registry,
  type Tool,
  top,
} from "@agent-bridle/core";

/** A `HOME` that exists nowhere: the default path policy blocks its credential names. */
export const NOWHERE_HOME = "/nonexistent-home";

/**
 * A registry holding one tool with the Linux default path policy, and a `dispatch` that
 * mints a fresh grant for each call: `top()` narrowed by the axes a test names, so each
 * test states only the axis it exercises and every other axis is written `all` here.
 */
export function registryWith<Args, Result>(tool: Tool<Args, Result>) {
  const registry = Registry.builder()
    .tool(tool)
    .pathPolicy(defaultPathPolicy({ platform: "linux", home: NOWHERE_HOME }))
    .build();
  const dispatch = (args: unknown, partial: Partial<Caveats> = {}, signal?: AbortSignal) =>
    registry.dispatch(
      tool.name,
      args,
      registry.mintGrant(caveats({ ...top(), ...partial })),
      signal ? { signal } : {},
    ) as Promise<Record<string, unknown>>;
  return { registry, dispatch };
}
