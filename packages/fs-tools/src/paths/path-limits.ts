/**
 * The longest path, in bytes with its terminating NUL, that the kernel accepts in one
 * system call (`PATH_MAX`): Linux 4096, macOS 1024. Node does not expose it. A longer path
 * text can never be opened as given (the kernel answers `ENAMETOOLONG`), so the tools
 * refuse it before judging, instead of judging a location nothing can open. Other
 * platforms rely on the judge's own limit.
 */
const PATH_MAX: Partial<Record<NodeJS.Platform, number>> = { linux: 4096, darwin: 1024 };

export function exceedsPathMax(location: string): boolean {
  const limit = PATH_MAX[process.platform];
  return limit !== undefined && Buffer.byteLength(location) >= limit;
}
