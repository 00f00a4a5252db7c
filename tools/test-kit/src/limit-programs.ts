/**
 * Small programs that run into the launcher's resource limits, for the engines' limit
 * tests (each engine runs them through its own syntax). Python, because it makes the
 * system calls directly: the allocation touches every page, the loop forks until refused.
 */

/** `python3 -c` text that allocates (and zeroes) 6 GiB. */
export const ALLOCATE_6_GIB = "b = bytearray(6 * 1024 ** 3)";

/** `python3 -c` text that allocates 16 MiB: fits every default. */
export const ALLOCATE_16_MIB = "b = bytearray(16 * 1024 ** 2)";

/** `python3 -c` text that forks `count` children that sleep `seconds` (multi-line). */
export function forkLoop(count: number, seconds: number): string {
  return [
    "import os, time",
    `for i in range(${count}):`,
    "    if os.fork() == 0:",
    `        time.sleep(${seconds})`,
    "        os._exit(0)",
  ].join("\n");
}

/** A shell command writing 2 MiB of zeros to `f` (over a 1 MiB file-size limit). */
export const WRITE_2_MIB = "head -c 2M /dev/zero > f";
