import * as z from "zod";
import { CaveatsSchema } from "./caveats.js";

/** The published JSON Schema of a grant (`schema/caveats.schema.json`, drift-checked by a test). */
export function caveatsJsonSchema(): Record<string, unknown> {
  return {
    ...(z.toJSONSchema(CaveatsSchema, { io: "input" }) as Record<string, unknown>),
    title: "agent-bridle Caveats (grant)",
  };
}
