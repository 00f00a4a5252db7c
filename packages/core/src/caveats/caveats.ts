import * as z from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { caveatsProblems } from "./caveats-problems.js";
import { type CountBound, CountBoundSchema, countLeq, countMeet } from "./count-bound.js";
import { NetHostSchema } from "./net-host-schema.js";
import { none, only, type Scope, scopeLeq, scopeMeet, scopeSchema } from "./scope.js";

/**
 * The grant vocabulary: exactly six required fields. Unknown extra keys are ignored
 * (as the reference's serde struct does); a missing or malformed field is an error,
 * never "all".
 */
export const CaveatsSchema = z
  .object({
    fs_read: scopeSchema(z.string()),
    fs_write: scopeSchema(z.string()),
    exec: scopeSchema(z.string()),
    net: scopeSchema(NetHostSchema),
    max_calls: CountBoundSchema,
    valid_for_generation: scopeSchema(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)),
  })
  .strip();

export interface Caveats {
  readonly fs_read: Scope<string>;
  readonly fs_write: Scope<string>;
  readonly exec: Scope<string>;
  readonly net: Scope<string>;
  readonly max_calls: CountBound;
  readonly valid_for_generation: Scope<number>;
}

function normalize<T extends string | number>(scope: Scope<T>): Scope<T> {
  return scope === "all" ? "all" : only(scope.only);
}

function freezeCaveats(caveats: Caveats): Caveats {
  return Object.freeze({
    fs_read: normalize(caveats.fs_read),
    fs_write: normalize(caveats.fs_write),
    exec: normalize(caveats.exec),
    net: normalize(caveats.net),
    max_calls:
      caveats.max_calls === "unlimited" ? "unlimited" : Object.freeze({ ...caveats.max_calls }),
    valid_for_generation: normalize(caveats.valid_for_generation),
  });
}

/** Validates a grant in its JSON shape; throws `ConfigurationError` (`CONFIG_INVALID_CAVEATS`). */
export function parseCaveats(input: unknown): Caveats {
  const parsed = CaveatsSchema.safeParse(input);
  if (!parsed.success) {
    const problems = caveatsProblems(input);
    const issues =
      problems.length > 0
        ? problems.join("; ")
        : parsed.error.issues
            .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
            .join("; ");
    throw new ConfigurationError(`invalid caveats: ${issues}`, {
      code: "CONFIG_INVALID_CAVEATS",
      cause: parsed.error,
    });
  }
  return freezeCaveats(parsed.data);
}

/**
 * What `caveats()` puts on an axis the description leaves out (ADR 0019): the four
 * authority axes fail closed (`none`: nothing read, written, run or reached), while the
 * two limits stay open (`max_calls` `unlimited`, `valid_for_generation` `all`): they
 * bound a grant's use, grant nothing themselves, and a default of `none` there would
 * make every grant unusable.
 */
function omitted(): Caveats {
  return freezeCaveats({
    fs_read: none(),
    fs_write: none(),
    exec: none(),
    net: none(),
    max_calls: "unlimited",
    valid_for_generation: "all",
  });
}

/**
 * Builds caveats from a partial description. It fails closed: an authority axis it does
 * not name (`fs_read`, `fs_write`, `exec`, `net`) grants nothing; write `"all"` to grant
 * an axis whole, or start from `top()`. An omitted `max_calls` is `unlimited` and an
 * omitted `valid_for_generation` is `all` (ADR 0019).
 */
export function caveats(partial: Partial<Caveats> = {}): Caveats {
  return parseCaveats({ ...omitted(), ...partial });
}

/** Every scope `all`, `max_calls` `unlimited`: the identity of `meet`. */
export function top(): Caveats {
  return freezeCaveats({
    fs_read: "all",
    fs_write: "all",
    exec: "all",
    net: "all",
    max_calls: "unlimited",
    valid_for_generation: "all",
  });
}

export function meet(a: Caveats, b: Caveats): Caveats {
  return freezeCaveats({
    fs_read: scopeMeet(a.fs_read, b.fs_read),
    fs_write: scopeMeet(a.fs_write, b.fs_write),
    exec: scopeMeet(a.exec, b.exec),
    net: scopeMeet(a.net, b.net),
    max_calls: countMeet(a.max_calls, b.max_calls),
    valid_for_generation: scopeMeet(a.valid_for_generation, b.valid_for_generation),
  });
}

export function leq(a: Caveats, b: Caveats): boolean {
  return (
    scopeLeq(a.fs_read, b.fs_read) &&
    scopeLeq(a.fs_write, b.fs_write) &&
    scopeLeq(a.exec, b.exec) &&
    scopeLeq(a.net, b.net) &&
    countLeq(a.max_calls, b.max_calls) &&
    scopeLeq(a.valid_for_generation, b.valid_for_generation)
  );
}

/** The grant's JSON shape, with sets sorted (stable across runs). */
export function caveatsToJson(value: Caveats): string {
  return JSON.stringify(freezeCaveats(value));
}
