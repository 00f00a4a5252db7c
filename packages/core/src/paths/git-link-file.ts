import { foldPathName, matchComponents } from "./blocked-match.js";

/** How a refusal of a `.git` file names what blocked it (the denial's detail). */
export const GIT_LINK_FILE_ENTRY = "**/.git (a gitdir: file)";

const GIT = foldPathName(".git");

/**
 * Whether writing `location` would write a `.git` file: a linked worktree's or a
 * submodule checkout's `gitdir: <path>`, which makes git take its repository, and so its
 * config and hooks, from that other directory at the next git command. A blocked entry
 * cannot name it (an entry covers everything beneath it, and `.git` is usually the
 * directory git itself writes), so the judge refuses a write whose last name is `.git`,
 * matched as blocked entries are (case, Unicode normalisation, trailing dots). A `.git`
 * directory cannot be written as a file anyway.
 */
export function isGitLinkFile(location: string): boolean {
  return matchComponents(location).at(-1) === GIT;
}
