import { NO_BACKEND } from "@agent-bridle/core";
import type { Backend, PreparedBackend } from "./backend.js";

const PREPARED: PreparedBackend = Object.freeze({
  applied: NO_BACKEND,
  wrap: (argv: readonly string[]) => argv,
  closesUnlistedDescriptors: false,
  unmasked: Object.freeze([]),
});

/** Applies nothing; every restricted fs/net axis is then refused by the floor. */
export const NONE_BACKEND: Backend = Object.freeze({
  kind: "none" as const,
  probe: async () => ({ available: true }),
  prepare: async () => PREPARED,
});
