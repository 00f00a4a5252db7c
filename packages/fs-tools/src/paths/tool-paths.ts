import {
  type JudgedPath,
  type JudgePathRequest,
  judgePath,
  type OpenDecision,
  openPathRead,
  openPathWrite,
  type PathDecision,
  type PathOperation,
  type PathPolicy,
  type ToolContext,
  type WriteOpenOptions,
} from "@agent-bridle/core";
import type { FileConfig } from "../config/file-config.js";
import { createToolDenial, retarget } from "../result/fs-denial.js";
import { resolvedPolicy } from "./merge-policy.js";
import { exceedsPathMax } from "./path-limits.js";
import { toolPath } from "./tool-path.js";

export type { JudgedPath };

/**
 * One call's view of the path rules: every path is judged by the grant's scope for the
 * operation (from the `ToolContext`, the effective caveats), by `FileConfig.allowedPaths`,
 * and by the registry's `PathPolicy` together with `FileConfig.blockedPaths` (blocked
 * wins), in one judgement; opens are core's mediated opens of exactly that judgement.
 * Denials carry the path as the caller spelled it.
 */
export class ToolPaths {
  constructor(
    readonly cx: ToolContext,
    readonly config: FileConfig,
  ) {}

  /** The absolute, dot-free location the tools use for a requested path. */
  locate(requested: string): string {
    return toolPath(requested, this.config.baseDir);
  }

  /**
   * The registry's policy and `FileConfig.blockedPaths` merged, with every absolute entry
   * also at its real location (see `resolvedPolicy`), handed to the judge resolved.
   */
  policy(): Promise<PathPolicy> {
    return resolvedPolicy(this.cx.pathPolicy, this.config.blockedPaths);
  }

  async request(location: string, op: PathOperation): Promise<JudgePathRequest> {
    return {
      path: location,
      baseDir: this.config.baseDir,
      op,
      scope: op === "read" ? this.cx.caveats.fs_read : this.cx.caveats.fs_write,
      allowed: this.config.allowedPaths,
      policy: await this.policy(),
    };
  }

  /** Judges a requested path for an operation (no open). */
  judge(requested: string, op: PathOperation): Promise<PathDecision> {
    return this.judgeLocation(this.locate(requested), op, requested);
  }

  /** Judges a location the tool derived itself (already absolute and dot-free). */
  async judgeLocation(location: string, op: PathOperation, requested: string) {
    const tooLong = this.#tooLong(location, op, requested);
    if (tooLong !== undefined) return tooLong;
    return this.#retargeted(await judgePath(await this.request(location, op)), requested);
  }

  /** Judge and open for reading in one step: the file opened is the file judged. */
  async openRead(requested: string): Promise<OpenDecision> {
    const location = this.locate(requested);
    const tooLong = this.#tooLong(location, "read", requested);
    if (tooLong !== undefined) return tooLong;
    const request = await this.request(location, "read");
    return this.#retargeted(await openPathRead(request), requested);
  }

  /** Judge and open a derived location for writing (the mediated open). */
  async openWrite(location: string, requested: string, options: WriteOpenOptions) {
    const tooLong = this.#tooLong(location, "write", requested);
    if (tooLong !== undefined) return tooLong;
    const request = { ...(await this.request(location, "write")), ...options };
    return this.#retargeted(await openPathWrite(request), requested);
  }

  /** A path text the kernel would refuse whole (see `exceedsPathMax`), refused first. */
  #tooLong(location: string, op: PathOperation, requested: string) {
    if (!exceedsPathMax(location)) return undefined;
    const denial = createToolDenial(
      op,
      requested,
      "FS_PATH_TOO_LONG",
      "the path is longer than the system allows; use a shorter path",
    );
    return { ok: false as const, denial };
  }

  #retargeted<Decision extends PathDecision | OpenDecision>(
    decision: Decision,
    requested: string,
  ): Decision {
    if (decision.ok) return decision;
    return { ok: false, denial: retarget(decision.denial, requested) } as Decision;
  }
}
