import * as z from "zod";

/** The L3 backend actually governing a run. JSON snake_case; `none` is the default. */
export const SandboxKindSchema = z.enum([
  "landlock",
  "seatbelt",
  "app_container",
  "minimal_rootfs",
  "micro_vm",
  "none",
]);
export type SandboxKind = z.infer<typeof SandboxKindSchema>;
