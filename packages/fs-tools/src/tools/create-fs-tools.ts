import type { Tool } from "@agent-bridle/core";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import {
  createDirectoryTreeTool,
  type DirectoryTreeArguments,
  type DirectoryTreeToolResult,
} from "./directory-tree-tool.js";
import {
  createEditFileTool,
  type EditFileArguments,
  type EditFileToolResult,
} from "./edit-file-tool.js";
import {
  createFileInfoTool,
  type FileInfoArguments,
  type FileInfoToolResult,
} from "./file-info-tool.js";
import {
  createListAllowedDirectoriesTool,
  type ListAllowedDirectoriesArguments,
  type ListAllowedDirectoriesToolResult,
} from "./list-allowed-directories-tool.js";
import {
  createListDirectoryTool,
  type ListDirectoryArguments,
  type ListDirectoryToolResult,
} from "./list-directory-tool.js";
import {
  createReadFileTool,
  type ReadFileArguments,
  type ReadFileToolResult,
} from "./read-file-tool.js";
import {
  createSearchFilesTool,
  type SearchFilesArguments,
  type SearchFilesToolResult,
} from "./search-files-tool.js";
import {
  createWriteFileTool,
  type WriteFileArguments,
  type WriteFileToolResult,
} from "./write-file-tool.js";

/** The file tools, sharing one `FileConfig`. */
export interface FsTools {
  readonly readFile: Tool<ReadFileArguments, ReadFileToolResult>;
  readonly listDirectory: Tool<ListDirectoryArguments, ListDirectoryToolResult>;
  readonly fileInfo: Tool<FileInfoArguments, FileInfoToolResult>;
  readonly writeFile: Tool<WriteFileArguments, WriteFileToolResult>;
  readonly editFile: Tool<EditFileArguments, EditFileToolResult>;
  readonly searchFiles: Tool<SearchFilesArguments, SearchFilesToolResult>;
  readonly directoryTree: Tool<DirectoryTreeArguments, DirectoryTreeToolResult>;
  readonly listAllowedDirectories: Tool<
    ListAllowedDirectoriesArguments,
    ListAllowedDirectoriesToolResult
  >;
}

/**
 * `read_file`, `list_directory`, `file_info`, `write_file`, `edit_file`, `search_files`,
 * `directory_tree` and `list_allowed_directories`
 * over one configuration,
 * frozen. Register the ones the host wants (`Registry.builder().tool(tools.readFile)…`);
 * the grant decides what each call may reach.
 */
export function createFsTools(config: FileConfig = createFileConfig()): FsTools {
  return Object.freeze({
    readFile: createReadFileTool(config),
    listDirectory: createListDirectoryTool(config),
    fileInfo: createFileInfoTool(config),
    writeFile: createWriteFileTool(config),
    editFile: createEditFileTool(config),
    searchFiles: createSearchFilesTool(config),
    directoryTree: createDirectoryTreeTool(config),
    listAllowedDirectories: createListAllowedDirectoriesTool(config),
  });
}
