import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { sameFile } from "@agent-bridle/core";
import { locateLauncher } from "../launcher/locate.js";
import type { LauncherBinary } from "../launcher/types.js";

/** What the child established about its parent before reading the frame. */
export interface ParentProof {
  readonly parentPid: number;
  /** The launcher's `SO_PEERCRED` answer was checked (else: no launcher, not proven). */
  readonly peerCredentials: boolean;
}

interface PeerCredentials {
  readonly pid: number;
  readonly uid: number;
}

function parsePeer(text: string): PeerCredentials | undefined {
  try {
    const value = JSON.parse(text) as { pid?: unknown; uid?: unknown };
    if (typeof value.pid === "number" && typeof value.uid === "number") {
      return { pid: value.pid, uid: value.uid };
    }
  } catch {}
  return undefined;
}

/** Whether `/proc/<pid>/exe` is this executable: `undefined` when it cannot be read. */
function sameImage(pid: number): boolean | undefined {
  if (process.platform !== "linux" || pid <= 0) return undefined;
  try {
    return sameFile(
      statSync(`/proc/${pid}/exe`, { bigint: true }),
      statSync(process.execPath, { bigint: true }),
    );
  } catch {
    return undefined;
  }
}

/**
 * The checks on a private channel's peer (descriptor 3), made by the child before it
 * reads any byte of the parent's frame (ADR 0007; the bash worker's ADR 0008):
 * with the launcher, the kernel-attested creator of the channel must be this process's
 * parent (pid, as this PID namespace sees both) and run as this uid; where the parent is
 * visible its executable must be this one. Returns the proof, or why it failed. `locate`
 * finds the launcher (a bundled child passes its own lookup: its `import.meta.url` is not
 * this package's).
 */
export async function proveParent(
  locate: () => Promise<LauncherBinary | undefined> = locateLauncher,
): Promise<ParentProof | string> {
  const parentPid = process.ppid;
  let launcher: LauncherBinary | undefined;
  try {
    launcher = await locate();
  } catch {
    return "the launcher failed its checksum";
  }
  let peerCredentials = false;
  if (launcher !== undefined) {
    const answer = spawnSync(launcher.path, ["--peer-cred", "3"], {
      stdio: ["ignore", "pipe", "pipe", 3],
      env: {},
      timeout: 5000,
    });
    const peer = answer.status === 0 ? parsePeer(answer.stdout.toString("utf8")) : undefined;
    if (peer === undefined) return "peer credentials unavailable";
    if (peer.pid !== parentPid) return "the channel's peer is not the launching parent";
    if (peer.uid !== process.getuid?.()) return "the channel's peer runs as another user";
    peerCredentials = true;
  }
  if (sameImage(parentPid) === false) return "parent image is not this executable";
  return { parentPid, peerCredentials };
}
