import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { caveats, type Grant, only, Registry, type Tool } from "@agent-bridle/core";

/**
 * A temp directory for an fs-tools benchmark (made in `setup`, at its real location), a
 * registry holding one tool, and a grant restricted to that directory: `fs_read` only the
 * fixture root, `fs_write` nothing, the other axes as `top()`. The registry uses core's
 * default path policy and the tool its default `FileConfig`, as a host that configures
 * nothing would.
 */
export class FsFixture {
  #root: string | undefined;
  #registry: Registry | undefined;
  #grant: Grant | undefined;

  get root(): string {
    if (this.#root === undefined) throw new Error("fixture not set up");
    return this.#root;
  }

  create<Args, Result>(tool: Tool<Args, Result>): void {
    this.#root = realpathSync(mkdtempSync(join(tmpdir(), "bench-fs-tools-")));
    this.#registry = Registry.builder().tool(tool).build();
    this.#grant = this.#registry.mintGrant(
      caveats({ fs_read: only([this.#root]), fs_write: only([]), exec: "all", net: "all" }),
    );
  }

  file(name: string, content: string | Buffer): string {
    const location = join(this.root, name);
    writeFileSync(location, content);
    return location;
  }

  directory(name: string, entries: number): string {
    const location = join(this.root, name);
    mkdirSync(location);
    for (let index = 0; index < entries; index++)
      writeFileSync(join(location, `entry-${index}.txt`), "x");
    return location;
  }

  /** Dispatches through the registry; a denial would make the benchmark meaningless, so it throws. */
  async dispatch(name: string, args: unknown): Promise<unknown> {
    if (this.#registry === undefined || this.#grant === undefined)
      throw new Error("fixture not set up");
    const value = (await this.#registry.dispatch(name, args, this.#grant)) as { denied?: boolean };
    if (value.denied === true) throw new Error(`${name} was denied: ${JSON.stringify(value)}`);
    return value;
  }

  remove(): void {
    if (this.#root !== undefined) rmSync(this.#root, { recursive: true, force: true });
    this.#root = undefined;
  }
}
