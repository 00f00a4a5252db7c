import type { SearchFilesResult } from "@agent-bridle/core";

export type Match = SearchFilesResult["matches"][number];

/** Deepest directory level a walk descends to below the directory it starts at. */
export const MAX_WALK_DEPTH = 64;

/**
 * What one search may still spend, and what it found so far: matches up to `maxMatches`,
 * file bytes read up to `maxBytes`, directory entries examined up to `maxEntries`. Once
 * any budget is spent the search stops and is `truncated`.
 */
export class SearchBudget {
  readonly matches: Match[] = [];
  filesSearched = 0;
  filesSkipped = 0;
  truncated = false;
  #bytes: number;
  #entries: number;

  constructor(
    readonly maxMatches: number,
    maxBytes: number,
    maxEntries: number,
  ) {
    this.#bytes = maxBytes;
    this.#entries = maxEntries;
  }

  /** Whether the search must stop: a budget is spent (or more matches exist than fit). */
  get done(): boolean {
    return this.truncated;
  }

  get entriesLeft(): number {
    return this.#entries;
  }

  spendEntries(count: number, more: boolean): void {
    this.#entries -= count;
    if (more) this.truncated = true;
  }

  /** Takes `size` bytes of reading, or stops the search when they are not left. */
  takeBytes(size: number): boolean {
    if (size > this.#bytes) {
      this.truncated = true;
      return false;
    }
    this.#bytes -= size;
    return true;
  }

  get matchesLeft(): number {
    return this.maxMatches - this.matches.length;
  }

  add(found: readonly Match[], more: boolean): void {
    this.matches.push(...found);
    if (more) this.truncated = true;
  }
}
