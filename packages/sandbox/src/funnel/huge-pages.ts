/**
 * Transparent huge pages for an engine's own runtime (a `SandboxRunRequest` with
 * `hugePages`). A bash worker starts from a 6 MB Node startup snapshot, which Node reads
 * into fresh buffers and copies again: on a virtual machine where each page fault is
 * costly, faulting those 4 KiB at a time was a fifth of a worker's start (27 ms of CPU of
 * ~180 on a 2-vCPU VM). glibc's malloc asks for huge pages for such buffers when
 * `glibc.malloc.hugetlb=1` is set and it can read the kernel's THP mode, so the view
 * shows that read-only directory (settings, no data). Where THP is off, or the C library
 * is not glibc, nothing changes. `GLIBC_TUNABLES` stays on the caller denylist: only this
 * fixed value, set by the funnel for an engine's runtime, reaches a process.
 */
export const HUGE_PAGES_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  GLIBC_TUNABLES: "glibc.malloc.hugetlb=1",
});

/** What glibc reads to learn the THP mode and the huge page size. */
export const HUGE_PAGES_READ_PATHS: readonly string[] = Object.freeze([
  "/sys/kernel/mm/transparent_hugepage",
]);
