/**
 * File system types whose metadata lookups (`lstat`, `realpath`) are answered from the
 * local kernel's caches and disks: they return in microseconds or fail, they never wait
 * on a network peer or a user-space daemon. Anything else (NFS, SMB, FUSE, 9p, autofs,
 * an unknown type) may block for as long as its server takes.
 */
const LOCAL_TYPES: ReadonlySet<string> = new Set([
  "binfmt_misc",
  "bpf",
  "btrfs",
  "cgroup",
  "cgroup2",
  "configfs",
  "debugfs",
  "devpts",
  "devtmpfs",
  "efivarfs",
  "exfat",
  "ext2",
  "ext3",
  "ext4",
  "f2fs",
  "fusectl",
  "hugetlbfs",
  "iso9660",
  "mqueue",
  "nsfs",
  "overlay",
  "proc",
  "pstore",
  "ramfs",
  "securityfs",
  "squashfs",
  "sysfs",
  "tmpfs",
  "tracefs",
  "vfat",
  "xfs",
  "zfs",
]);

/** What the mount table says about blocking metadata lookups. */
export type MountTableVerdict =
  | { readonly local: true }
  | {
      readonly local: false;
      /** The first mount that is not known to be local (or why the table was unusable). */
      readonly mountPoint: string;
      readonly type: string;
    };

/** `\040`-style octal escapes in `mountinfo` fields (a space in a mount point). */
function unescapeField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/**
 * Classifies a Linux `/proc/self/mountinfo` text (proc(5)): local when every mount's
 * type is one of the local types above. A line that cannot be read, or an empty table,
 * is not local: the verdict only ever errs towards the thread pool.
 */
export function classifyMountTable(mountinfo: string): MountTableVerdict {
  let mounts = 0;
  for (const line of mountinfo.split("\n")) {
    if (line === "") continue;
    const separator = line.indexOf(" - ");
    const fields = line.slice(0, Math.max(separator, 0)).split(" ");
    const type = separator < 0 ? undefined : line.slice(separator + 3).split(" ")[0];
    const mountPoint = fields[4];
    if (type === undefined || type === "" || mountPoint === undefined) {
      return { local: false, mountPoint: "(unreadable mountinfo line)", type: "unknown" };
    }
    if (!LOCAL_TYPES.has(type))
      return { local: false, mountPoint: unescapeField(mountPoint), type };
    mounts += 1;
  }
  return mounts > 0 ? { local: true } : { local: false, mountPoint: "(none)", type: "unknown" };
}
