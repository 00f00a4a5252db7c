import type { EditFileToolResult } from "./tools/edit-file-tool.js";
import type { FileInfoToolResult } from "./tools/file-info-tool.js";
import type { ListDirectoryToolResult } from "./tools/list-directory-tool.js";
import type { ReadFileToolResult } from "./tools/read-file-tool.js";
import type { SearchFilesToolResult } from "./tools/search-files-tool.js";
import type { WriteFileToolResult } from "./tools/write-file-tool.js";

// `Registry.dispatch` types the result of the fs tools by their names (core's
// `ToolResults`); a new fs tool adds its entry here.
declare module "@agent-bridle/core" {
  interface ToolResults {
    read_file: ReadFileToolResult;
    list_directory: ListDirectoryToolResult;
    file_info: FileInfoToolResult;
    write_file: WriteFileToolResult;
    edit_file: EditFileToolResult;
    search_files: SearchFilesToolResult;
  }
}
