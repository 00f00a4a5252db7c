import type * as z from "zod";
import { InvalidArgumentsError } from "../errors/invalid-arguments-error.js";

/** Parses arguments with the tool's schema; the error names the field and the limit. */
export function validateArguments<Args>(
  toolName: string,
  schema: z.ZodType<Args>,
  args: unknown,
): Args {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "(arguments)";
  const detail = parsed.error.issues
    .map((each) => `${each.path.map(String).join(".") || "(arguments)"}: ${each.message}`)
    .join("; ");
  throw new InvalidArgumentsError(field, `invalid arguments for ${toolName}: ${detail}`, {
    cause: parsed.error,
  });
}
