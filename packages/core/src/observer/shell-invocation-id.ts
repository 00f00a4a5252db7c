declare const shellInvocationIdBrand: unique symbol;

/**
 * Opaque, process-local identity of one observed shell invocation (spec §8.1).
 *
 * Representation: a branded `number` (the Rust original's `u64` with `get()`). The brand
 * keeps arbitrary numbers from being passed where an id is expected; the value itself is a
 * plain positive integer, so it compares with `===`, works as a `Map` key and serialises as
 * a JSON number. It is allocated from a counter starting at 1, only for invocations that
 * have an observer; it is not stable across restarts, is not unique across two installed
 * copies of core, and carries no authority.
 */
export type ShellInvocationId = number & { readonly [shellInvocationIdBrand]: true };

let nextId = 1;

/** Allocates the next id from the process-local counter (1, 2, 3, ...). */
export function allocateShellInvocationId(): ShellInvocationId {
  const id = nextId;
  nextId += 1;
  return id as ShellInvocationId;
}
