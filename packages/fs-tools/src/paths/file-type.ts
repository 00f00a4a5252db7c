import type { FileType } from "@agent-bridle/core";

interface TypedStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
}

/** The result schemas' file type of a `stat`/`lstat`/`Dirent` result. */
export function fileTypeOf(stats: TypedStats): FileType {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  if (stats.isBlockDevice()) return "block_device";
  if (stats.isCharacterDevice()) return "char_device";
  return "unknown";
}

const NAMES: Record<FileType, string> = {
  file: "a regular file",
  directory: "a directory",
  symlink: "a symbolic link",
  fifo: "a FIFO (named pipe)",
  socket: "a socket",
  block_device: "a block device",
  char_device: "a character device",
  unknown: "not a regular file",
};

/** "a directory", "a FIFO (named pipe)"… for reasons. */
export function describeFileType(type: FileType): string {
  return NAMES[type];
}
