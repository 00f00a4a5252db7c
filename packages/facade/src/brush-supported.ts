/**
 * Whether the bash engine (`shell-brush`, `BrushShellTool`) can serve as the default
 * `shell` on this host. The reference answers true on Linux and macOS.
 *
 * INTERIM: always `false`, because `shell-brush` is not written yet (issue 7). When it
 * lands this becomes the capability probe of reference §9 (true exactly on Linux and
 * macOS), and `registry()` registers it as `shell` by default. It is a capability probe,
 * never a security override.
 */
export function brushSupported(_platform: NodeJS.Platform = process.platform): boolean {
  return false;
}
