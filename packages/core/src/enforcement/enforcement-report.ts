import * as z from "zod";
import { AxisEnforcementSchema } from "./axis-enforcement.js";

/** Per-axis report: only restricted axes appear. */
export const EnforcementReportSchema = z.strictObject({
  fs_read: AxisEnforcementSchema.optional(),
  fs_write: AxisEnforcementSchema.optional(),
  exec: AxisEnforcementSchema.optional(),
  net: AxisEnforcementSchema.optional(),
});
export type EnforcementReport = z.infer<typeof EnforcementReportSchema>;
