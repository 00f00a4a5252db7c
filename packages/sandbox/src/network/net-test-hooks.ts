import type { Backend } from "../backend/backend.js";
import type { NetTestHooks } from "./host-resolver.js";

const bound = new WeakMap<Backend, NetTestHooks>();

/**
 * Test harness only (network.md, "Testing without the internet"): every sandbox built on
 * this backend object — whichever engine builds it — resolves names for its egress proxy
 * through `hooks` (loopback test servers) and nothing else. The binding lives in this
 * module's memory, keyed by the object itself: no configuration file, environment
 * variable or MCP request can name a backend object, so none can reach it. Returns the
 * same backend.
 */
export function bindNetTestHooks<B extends Backend>(backend: B, hooks: NetTestHooks): B {
  bound.set(
    backend,
    Object.freeze({
      hosts: Object.freeze({ ...hooks.hosts }),
      publicAddresses: Object.freeze([...(hooks.publicAddresses ?? [])]),
    }),
  );
  return backend;
}

/** The hooks a test bound to this backend object, if any. */
export function netTestHooksOf(backend: Backend | undefined): NetTestHooks | undefined {
  return backend === undefined ? undefined : bound.get(backend);
}
