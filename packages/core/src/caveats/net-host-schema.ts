import * as z from "zod";
import { parseNetHostPattern } from "./net-host-pattern.js";

/** One `net` grant entry, validated as a host pattern (a URL or a bad wildcard is an error). */
export const NetHostSchema = z.string().superRefine((entry, ctx) => {
  const parsed = parseNetHostPattern(entry);
  if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.reason });
});
