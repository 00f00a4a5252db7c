import { readdirSync, readFileSync } from "node:fs";

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
      for (const word of text.split(" ")) {
        const child = Number.parseInt(word, 10);
        if (Number.isSafeInteger(child) && child > 0) found.push(child);
      }
    } catch {
      // The task ended while we looked.
    }
  }
  return found;
}

/**
 * Every live descendant of `pid` (Linux `/proc/<pid>/task/<tid>/children`), whatever its
 * process group or session, down to `generations` below it. Only descendants still
 * attached to the tree are found: once an intermediate process exits, its orphans are
 * reparented and leave the walk. Empty where `/proc` is not available.
 */
export function listDescendants(pid: number, generations = Number.POSITIVE_INFINITY): number[] {
  const seen = new Set<number>();
  let level = [pid];
  for (let depth = 0; depth < generations && level.length > 0; depth += 1) {
    const next: number[] = [];
    for (const parent of level) {
      for (const child of childrenOf(parent)) {
        if (seen.has(child)) continue;
        seen.add(child);
        next.push(child);
      }
    }
    level = next;
  }
  return [...seen];
}

/** What a kill needs to know of the stage's wrapper (`StageWrapper`). */
export interface KillWrapper {
  readonly pidNamespace?: boolean | undefined;
}

/**
 * How deep a kill walks below a stage's process: everywhere, or, where the stage is a
 * wrapper whose child is PID 1 of a PID namespace of its own (the launcher), one
 * generation: that child's death makes the kernel kill everything else in the namespace,
 * so the host never walks a worker's threads and programs on its event loop (issue 20).
 */
export function killDepth(wrapper: KillWrapper | undefined): number {
  return wrapper?.pidNamespace === true ? 1 : Number.POSITIVE_INFINITY;
}

function signal(target: number): void {
  try {
    process.kill(target, "SIGKILL");
  } catch {
    // Already gone (ESRCH) or not ours (EPERM): nothing left to kill there.
  }
}

/**
 * SIGKILLs the process group led by `leader` and every descendant still attached to the
 * tree (so a `setsid` descendant of a live tree dies too). Two rounds, so a child forked
 * between the walk and the kill is caught. The caller reaps the leader.
 */
export function killProcessTree(leader: number, wrapper?: KillWrapper): void {
  for (let round = 0; round < 2; round += 1) {
    const descendants = listDescendants(leader, killDepth(wrapper));
    signal(-leader);
    for (const pid of descendants) signal(pid);
  }
}

/**
 * SIGKILLs every descendant of `leader` still attached to the tree, but not `leader` nor
 * its process group: a launcher left alive reaps its target (PID 1 of the call's PID
 * namespace, whose death kills the rest of it), reports what the tree ran into and exits.
 * Two rounds, as `killProcessTree`.
 */
export function killDescendants(leader: number, wrapper?: KillWrapper): void {
  for (let round = 0; round < 2; round += 1) {
    for (const pid of listDescendants(leader, killDepth(wrapper))) signal(pid);
  }
}

/** SIGKILLs what is left of an exited leader's process group (backgrounded members). */
export function killProcessGroup(leader: number): void {
  signal(-leader);
}
