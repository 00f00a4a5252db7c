import { isIdentifier, isPunctuator, isStaticString, type Token } from "./token.js";

/**
 * Lines that read the environment: `process.env`, `process?.env`, `process["env"]`,
 * `process?.["env"]`, and destructuring `{ env } = process`. Code only: comments and
 * strings never match, because they are not tokens of this kind.
 */
export function findProcessEnvReads(tokens: readonly Token[]): number[] {
  const lines: number[] = [];
  for (const [index, token] of tokens.entries()) {
    if (!isIdentifier(token, "process")) continue;
    if (readsEnvMember(tokens, index + 1) || destructuresEnv(tokens, index)) {
      lines.push(token.line);
    }
  }
  return lines;
}

function readsEnvMember(tokens: readonly Token[], start: number): boolean {
  let position = start;
  if (isPunctuator(tokens[position], "?.")) {
    if (isIdentifier(tokens[position + 1], "env")) return true;
    position += 1;
  } else if (isPunctuator(tokens[position], ".")) {
    return isIdentifier(tokens[position + 1], "env");
  }
  if (!isPunctuator(tokens[position], "[")) return false;
  const key = tokens[position + 1];
  return isStaticString(key) && key.value === "env" && isPunctuator(tokens[position + 2], "]");
}

/** `{ …, env, … } = process` (also `env: alias` and `env = fallback`). */
function destructuresEnv(tokens: readonly Token[], processIndex: number): boolean {
  if (!isPunctuator(tokens[processIndex - 1], "=")) return false;
  let position = processIndex - 2;
  if (!isPunctuator(tokens[position], "}")) return false;
  let depth = 0;
  for (; position >= 0; position -= 1) {
    const token = tokens[position];
    if (isPunctuator(token, "}")) depth += 1;
    else if (isPunctuator(token, "{") && --depth === 0) return false;
    else if (depth === 1 && isIdentifier(token, "env")) {
      const before = tokens[position - 1];
      if (isPunctuator(before, "{") || isPunctuator(before, ",")) return true;
    }
  }
  return false;
}
