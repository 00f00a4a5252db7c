import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyMountTable } from "../../src/paths/mount-table.js";

const line = (id: number, mountPoint: string, type: string) =>
  `${id} 1 0:${id} / ${mountPoint} rw,relatime shared:${id} - ${type} source rw`;

const LOCAL = [
  line(20, "/", "ext4"),
  line(21, "/proc", "proc"),
  line(22, "/sys", "sysfs"),
  line(23, "/tmp", "tmpfs"),
  line(24, "/var/lib/docker/overlay2/x/merged", "overlay"),
  line(25, "/sys/fs/cgroup", "cgroup2"),
].join("\n");

describe("classifyMountTable", () => {
  it("is local when every mount has a local type", () => {
    expect(classifyMountTable(`${LOCAL}\n`)).toEqual({ local: true });
  });

  it.each([
    ["nfs4", "/home"],
    ["cifs", "/mnt/share"],
    ["fuse.sshfs", "/mnt/remote"],
    ["fuse.portal", "/run/user/1000/doc"],
    ["autofs", "/net"],
    ["9p", "/mnt/host"],
    ["someday-fs", "/srv"],
  ])("is not local with a %s mount, and names it", (type, mountPoint) => {
    const table = `${LOCAL}\n${line(30, mountPoint, type)}\n`;
    expect(classifyMountTable(table)).toEqual({ local: false, mountPoint, type });
  });

  it("unescapes a mount point's octal escapes", () => {
    const table = `${LOCAL}\n${line(31, "/mnt/my\\040share", "smb3")}`;
    expect(classifyMountTable(table)).toMatchObject({ mountPoint: "/mnt/my share", type: "smb3" });
  });

  it("errs towards not local for an empty table or a line it cannot read", () => {
    expect(classifyMountTable("")).toMatchObject({ local: false });
    expect(classifyMountTable(`${LOCAL}\n36 35 98:0 /mnt1 /mnt2 rw`)).toMatchObject({
      local: false,
    });
  });

  it.runIf(process.platform === "linux")("reads this host's table without failing", () => {
    const verdict = classifyMountTable(readFileSync("/proc/self/mountinfo", "utf8"));
    expect(typeof verdict.local).toBe("boolean");
  });
});
