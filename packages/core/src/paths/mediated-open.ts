import { type JudgePathRequest, judgePath } from "./judge-path.js";
import { type OpenDecision, openJudgedPath, type WriteOpenOptions } from "./open-judged-path.js";

export type { OpenDecision, OpenedPath, OpenMode, WriteOpenOptions } from "./open-judged-path.js";

/** A judge request without the operation (the open names it). */
export type OpenPathRequest = Omit<JudgePathRequest, "op">;

/**
 * Check-and-open in one step, for reading: judge the path (`judgePath`, op `read`),
 * then open exactly the judged file (`openJudgedPath`). Unrestricted scopes open
 * directly, still without following links and still verified.
 */
export async function openPathRead(request: OpenPathRequest): Promise<OpenDecision> {
  const judged = await judgePath({ ...request, op: "read" });
  return judged.ok ? openJudgedPath(judged.value, { op: "read" }) : judged;
}

/**
 * Check-and-open in one step, for writing: judge (op `write`), then open the judged
 * file for writing: created when missing (unless `create: false`), replaced unless
 * `append`, refused when present and `exclusive`.
 */
export async function openPathWrite(
  request: OpenPathRequest & WriteOpenOptions,
): Promise<OpenDecision> {
  const { append, create, exclusive, mode, ...judgeRequest } = request;
  const judged = await judgePath({ ...judgeRequest, op: "write" });
  if (!judged.ok) return judged;
  return openJudgedPath(judged.value, { op: "write", append, create, exclusive, mode });
}
