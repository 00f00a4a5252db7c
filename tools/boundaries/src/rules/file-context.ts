import type { Workspace, WorkspacePackage } from "../workspace.js";

/** The file a rule is judging, and where it sits in the workspace. */
export interface FileContext {
  readonly workspace: Workspace;
  readonly owner: WorkspacePackage;
  /** Absolute path. */
  readonly file: string;
  /** Relative to the workspace root, forward slashes (the `file` of a violation). */
  readonly relativeFile: string;
  /** The scanned folder the file is in. */
  readonly folder: "src" | "test";
}
