/**
 * The live process substitutions of a run (`/dev/fd/N`, N from 63 down), shared by a
 * shell and its subshells: served from memory to redirections, `source` and the
 * in-process utilities, and handed to external commands as descriptors.
 */
import type { ExternalDescriptor } from "./external.js";
import type { MemoryFiles } from "./gate.js";
import type { MemorySink } from "./io.js";

export type Substitution =
  | { readonly direction: "<"; readonly data: Uint8Array }
  | {
      readonly direction: ">";
      readonly sink: MemorySink;
      readonly reader: () => Promise<void>;
    };

const FIRST = 63;
const LAST = 10;

/** The live substitutions, shared by a shell and its subshells. */
export class ProcessSubstitutions implements MemoryFiles {
  private readonly entries = new Map<number, Substitution>();
  private next: number;

  /** `parent`: the table of the shell a concurrent subshell (a pipeline stage) came from. */
  constructor(private readonly parent?: ProcessSubstitutions) {
    this.next = parent === undefined ? FIRST : parent.next;
  }

  add(substitution: Substitution): string {
    const fd = this.next;
    this.next = fd <= LAST ? FIRST : fd - 1;
    this.entries.set(fd, substitution);
    return `/dev/fd/${fd}`;
  }

  private fdOf(path: string): number | undefined {
    const match = /^\/dev\/fd\/([0-9]+)$/.exec(path);
    return match === null ? undefined : Number(match[1]);
  }

  get(path: string): Substitution | undefined {
    const fd = this.fdOf(path);
    const own = fd === undefined ? undefined : this.entries.get(fd);
    return own ?? this.parent?.get(path);
  }

  input(path: string): Uint8Array | undefined {
    const found = this.get(path);
    return found?.direction === "<" ? found.data : undefined;
  }

  /** The descriptors an external command needs for the substitutions its argv names. */
  descriptors(argv: readonly string[]): Map<number, ExternalDescriptor> {
    const out = new Map<number, ExternalDescriptor>();
    for (const arg of argv) {
      const fd = this.fdOf(arg);
      const found = fd === undefined ? undefined : this.get(arg);
      if (fd === undefined || found === undefined) continue;
      out.set(
        fd,
        found.direction === "<"
          ? { input: found.data }
          : { output: (chunk) => found.sink.write(chunk) },
      );
    }
    return out;
  }

  /** Where the table stands now; `settle(mark)` ends what was added since. */
  mark(): number {
    return this.next;
  }

  /** Run the `>(…)` readers added since `mark` and forget those substitutions. */
  async settle(mark: number): Promise<void> {
    if (this.next === mark) return;
    const added: Substitution[] = [];
    for (let fd = mark; fd !== this.next; fd = fd <= LAST ? FIRST : fd - 1) {
      const found = this.entries.get(fd);
      this.entries.delete(fd);
      if (found !== undefined) added.push(found);
    }
    this.next = mark;
    for (const found of added) if (found.direction === ">") await found.reader();
  }
}
