import { readdirSync } from "node:fs";

/**
 * The host's open descriptors (≥ 3), each of which the funnel covers with `/dev/null` in
 * a child that has no launcher to close them: a descriptor without close-on-exec (handed
 * to Node by whatever started it, or opened by a native addon) would otherwise reach the
 * child. Covering every open one, close-on-exec or not, is harmless and needs one
 * directory listing, where telling them apart read one `fdinfo` file per descriptor.
 * Linux only (`/proc/self/fd`); empty elsewhere.
 */
export function hostDescriptorsToCover(): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc/self/fd");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const fd = Number.parseInt(name, 10);
    if (fd >= 3) found.push(fd);
  }
  return found.sort((a, b) => a - b);
}
