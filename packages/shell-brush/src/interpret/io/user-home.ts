/** `~user`: the home directory in `/etc/passwd`, read through the gate. */
import { readAndClose } from "./gate.js";
import type { ShellAccess } from "./shell-access.js";

/** The user's home directory, or undefined (unknown user, or the file refused). */
export async function userHome(access: ShellAccess, user: string): Promise<string | undefined> {
  const opened = await access.open("/etc/passwd");
  if (!opened.ok) return undefined;
  const text = (await readAndClose(opened.value)).toString("utf8");
  for (const line of text.split("\n")) {
    const fields = line.split(":");
    if (fields[0] === user) return fields[5];
  }
  return undefined;
}
