/**
 * Messages that point at the mistake in a grant: an unknown field with the field it was
 * probably meant to be, a missing field, a value of the wrong shape with what is expected.
 */

const SCOPE_FIELDS = ["fs_read", "fs_write", "exec", "net", "valid_for_generation"] as const;
const FIELDS = [...SCOPE_FIELDS.slice(0, 4), "max_calls", "valid_for_generation"] as const;

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const saved = row[j] ?? 0;
      row[j] = Math.min(
        (row[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      previous = saved;
    }
  }
  return row[b.length] ?? 0;
}

function suggestion(key: string): string {
  const best = [...FIELDS].sort((x, y) => distance(key, x) - distance(key, y))[0] ?? "";
  return distance(key, best) <= 3 ? ` (did you mean ${JSON.stringify(best)}?)` : "";
}

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function scopeProblem(field: string, value: unknown): string | undefined {
  if (value === "all") return undefined;
  const element = field === "valid_for_generation" ? "non-negative integers" : "strings";
  const expected = `${field} must be "all" or {"only": [${element}]}`;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${expected}, got ${shown(value)}`;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "only") return `${expected}, got ${shown(value)}`;
  const only = (value as { only: unknown }).only;
  if (!Array.isArray(only)) return `${expected}; "only" must be an array, got ${shown(only)}`;
  const wanted =
    field === "valid_for_generation"
      ? (entry: unknown) => Number.isSafeInteger(entry) && (entry as number) >= 0
      : (entry: unknown) => typeof entry === "string";
  const bad = only.findIndex((entry) => !wanted(entry));
  if (bad >= 0)
    return `${field}.only[${bad}] must be ${field === "valid_for_generation" ? "a non-negative integer" : "a string"}, got ${shown(only[bad])}`;
  return undefined;
}

function countProblem(value: unknown): string | undefined {
  if (value === "unlimited") return undefined;
  const expected = 'max_calls must be "unlimited" or {"at_most": N} (N a non-negative integer)';
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${expected}, got ${shown(value)}`;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "at_most") return `${expected}, got ${shown(value)}`;
  return undefined;
}

/**
 * The problems of a grant that does not parse, each naming the field and what it should
 * be; empty when the shape is right (then the schema's own messages apply).
 */
export function caveatsProblems(input: unknown): string[] {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return [`a grant is a JSON object with the fields ${FIELDS.join(", ")}; got ${shown(input)}`];
  const record = input as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(record)) {
    if (!(FIELDS as readonly string[]).includes(key))
      problems.push(`unknown field ${JSON.stringify(key)}${suggestion(key)}`);
  }
  for (const field of FIELDS) {
    if (!(field in record)) {
      problems.push(`missing field ${JSON.stringify(field)}`);
      continue;
    }
    const problem =
      field === "max_calls" ? countProblem(record[field]) : scopeProblem(field, record[field]);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}
