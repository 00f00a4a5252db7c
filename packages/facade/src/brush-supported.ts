/**
 * Whether the bash engine (`shell-brush`, `createBrushShellTool`) can serve as the
 * default `shell` on `platform` (reference §9): true exactly on Linux and macOS, where
 * the sandbox funnel starts its confined worker (Linux: the launcher; macOS: Seatbelt,
 * experimental). Elsewhere the default `shell` is the safe-subset engine.
 *
 * A capability probe, never a security override: it picks which engine serves `shell`;
 * what any engine may do is still decided by the grant, the strength floor and the
 * backend applied, and every result reports which boundary held.
 */
export function brushSupported(platform: NodeJS.Platform = process.platform): boolean {
  return platform === "linux" || platform === "darwin";
}
