// Public surface of @agent-bridle/fs-tools: explicit named exports only. Adding a name is
// an API decision and needs a changeset.

// Types `Registry.dispatch` results by fs tool name (declaration merging into core).
import "./tool-results.js";

export { defaultBlockedPaths } from "./config/default-blocked-paths.js";
export { createFileConfig, type FileConfig } from "./config/file-config.js";
export { type FileConfigOptions, FileConfigSchema } from "./config/file-config-schema.js";
export type { FsToolResult } from "./result/fs-result.js";

export { createFsTools, type FsTools } from "./tools/create-fs-tools.js";
export {
  createDirectoryTreeTool,
  DEFAULT_TREE_DEPTH,
  type DirectoryTreeArguments,
  type DirectoryTreeToolResult,
  MAX_TREE_DEPTH,
} from "./tools/directory-tree-tool.js";
export {
  createEditFileTool,
  type EditFileArguments,
  type EditFileResult,
  type EditFileToolResult,
  MAX_EDITS,
} from "./tools/edit-file-tool.js";
export {
  createFileInfoTool,
  type FileInfoArguments,
  FileInfoArgumentsSchema,
  type FileInfoToolResult,
} from "./tools/file-info-tool.js";
export {
  createListAllowedDirectoriesTool,
  type ListAllowedDirectoriesArguments,
  type ListAllowedDirectoriesToolResult,
} from "./tools/list-allowed-directories-tool.js";
export {
  createListDirectoryTool,
  DEFAULT_LIST_LIMIT,
  type ListDirectoryArguments,
  type ListDirectoryToolResult,
} from "./tools/list-directory-tool.js";
export {
  createReadFileTool,
  type ReadFileArguments,
  ReadFileArgumentsSchema,
  type ReadFileToolResult,
} from "./tools/read-file-tool.js";
export {
  createSearchFilesTool,
  DEFAULT_SEARCH_MATCHES,
  MAX_SEARCH_MATCHES,
  type SearchFilesArguments,
  type SearchFilesToolResult,
} from "./tools/search-files-tool.js";
export {
  createWriteFileTool,
  type WriteFileArguments,
  type WriteFileToolResult,
} from "./tools/write-file-tool.js";
