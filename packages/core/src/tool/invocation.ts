/**
 * What a tool reports about a call it handled: it ran (charged), or it refused before
 * running anything (refunded) with an in-band denial value.
 */
export type Invocation<Result> =
  | { readonly kind: "ran"; readonly value: Result }
  | { readonly kind: "denied"; readonly value: Result };

export function ran<Result>(value: Result): Invocation<Result> {
  return { kind: "ran", value };
}

export function deniedInvocation<Result>(value: Result): Invocation<Result> {
  return { kind: "denied", value };
}
