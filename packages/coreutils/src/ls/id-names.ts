import type { IoContext } from "../io/io-context.js";

/**
 * User and group names for `ls -l`, read from /etc/passwd and /etc/group through the
 * caller's gated opener (GNU prints names). When a database is refused or missing,
 * the numeric id is shown, as GNU does for an id without a name. A refusal here is
 * not reported on stderr (GNU would not fail either), but it is recorded as a denial.
 */
export class IdNames {
  readonly #context: IoContext;
  #users: Map<bigint, string> | undefined;
  #groups: Map<bigint, string> | undefined;

  constructor(context: IoContext) {
    this.#context = context;
  }

  async #load(path: string): Promise<Map<bigint, string>> {
    const names = new Map<bigint, string>();
    const opened = await this.#context.opener.open(path);
    if (!opened.ok) {
      if ("denial" in opened) this.#context.onDenial(opened.denial);
      return names;
    }
    try {
      const text = (await opened.value.readFile()).toString("latin1");
      for (const line of text.split("\n")) {
        const [name, , id] = line.split(":");
        if (name === undefined || id === undefined || !/^[0-9]+$/.test(id)) continue;
        if (!names.has(BigInt(id))) names.set(BigInt(id), name);
      }
    } catch {
      // An unreadable database: numeric ids.
    } finally {
      await opened.value.close();
    }
    return names;
  }

  async user(uid: bigint): Promise<string> {
    this.#users ??= await this.#load("/etc/passwd");
    return this.#users.get(uid) ?? String(uid);
  }

  async group(gid: bigint): Promise<string> {
    this.#groups ??= await this.#load("/etc/group");
    return this.#groups.get(gid) ?? String(gid);
  }
}
