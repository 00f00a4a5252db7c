import path from "node:path";

/** What a path is judged for: reading (and listing, describing) or writing. */
export type PathOperation = "read" | "write";

/**
 * Locations no grant reaches. `blocked` applies to every operation, `writeBlocked` to
 * writes only (configuration an agent could plant to run code later). An entry is an
 * absolute path (blocks it and everything beneath it) or a `**`-pattern of path
 * components (`**` stands for any number of components, `**` at the start anchors the
 * pattern anywhere, a trailing `/**` changes nothing: an entry always covers what is
 * beneath it). An entry of any other shape is read as a pattern anchored anywhere
 * (fail closed: it blocks more, never less). Matching ignores case and Unicode
 * normalisation; see `blocked-match.ts`.
 */
export interface PathPolicy {
  readonly blocked: readonly string[];
  readonly writeBlocked: readonly string[];
}

export interface DefaultPathPolicyOptions {
  readonly platform: NodeJS.Platform;
  /** The user's home directory; `undefined` when unknown (never read from the environment here). */
  readonly home: string | undefined;
  /** Windows `%APPDATA%` (roaming), whose credential folders are blocked when given. */
  readonly appData?: string | undefined;
}

/**
 * `/run` is where `/var/run` leads on every current Linux (a link): the secrets mounted
 * at `/var/run/secrets` (Kubernetes service-account tokens, Docker secrets) and the
 * system's sockets live there, so blocking `/var` by name alone would leave them
 * readable by their real name (ADR 0030).
 */
const UNIX_SYSTEM = ["/etc", "/var", "/run", "/sys", "/proc", "/dev", "/boot"];
const MACOS_SYSTEM = ["/private/etc", "/private/var", "/Library/Keychains"];
const WINDOWS_SYSTEM = ["C:\\Windows"];
const HOME_CREDENTIALS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".config/gh",
  ".kube",
  ".docker",
  ".netrc",
  ".npmrc",
  // Credential stores in their tools' default places (ADR 0030): tokens and passwords
  // in plain text, or the keys that open them.
  ".git-credentials",
  ".config/git/credentials",
  ".pypirc",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".config/gcloud",
  ".azure",
  ".oci",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".password-store",
  ".local/share/keyrings",
  ".pgpass",
  ".config/hub",
  ".config/containers/auth.json",
  ".s3cfg",
  ".boto",
];
const MACOS_HOME_CREDENTIALS = ["Library/Keychains"];
const APPDATA_CREDENTIALS = [
  "Microsoft/Credentials",
  "Microsoft/Protect",
  "Microsoft/Crypto",
  "Microsoft/SystemCertificates",
  "GitHub CLI",
];

/**
 * Files in git's own directory (and in a worktree's or a submodule's git directory
 * beneath it) whose content makes git run code, or read its configuration, hooks or
 * objects from another directory, at the next git command: hooks, config (also
 * `config.worktree`), `commondir` and `gitdir` (a linked worktree's pointers to the
 * common directory and back), `info/` (attributes and excludes) and the object
 * `alternates`. Git never shows these in a diff, so nobody reviews a change to them. What
 * git writes in ordinary work (`HEAD`, `index`, refs, objects, logs) stays writable.
 * `**` may stand for no component, so `**\/.git/**\/commondir` also covers `.git/commondir`;
 * it over-blocks only a ref of that name (`refs/heads/commondir`).
 *
 * Not here, deliberately: the tracked `.gitmodules` and `.gitattributes`. They are project
 * content that shows in every diff; git refuses a command-running `update = !cmd` from
 * `.gitmodules` (only config may hold it), and an attribute only names a filter or diff
 * driver that config must define. A `.git` *file* (`gitdir: <path>`) cannot be an entry
 * here (an entry covers what lies beneath it, and `.git` is usually the directory git
 * writes); the judge refuses writing it by name (`git-link-file.ts`).
 */
const GIT_INDIRECTIONS = [
  "**/.git/hooks/**",
  "**/.git/config",
  "**/.git/info/**",
  "**/.git/**/config.worktree",
  "**/.git/**/commondir",
  "**/.git/**/gitdir",
  "**/.git/**/objects/info/alternates",
  "**/.git/**/objects/info/http-alternates",
  "**/.git/worktrees/**/config",
  "**/.git/modules/**/hooks/**",
  "**/.git/modules/**/config",
  "**/.git/modules/**/info/**",
];

/**
 * Written only by people: configuration that makes an editor, an agent, git or a shell
 * run code later. Shell rc files and git's global config are blocked by name anywhere
 * (not only in the home directory, which may be unknown or not the one a shell uses).
 */
const AGENT_CONFIGURATION = [
  ...GIT_INDIRECTIONS,
  "**/.vscode/**",
  "**/.idea/**",
  "**/.claude/**",
  "**/.cursor/**",
  "**/.mcp.json",
  "**/.agent-bridle/**",
  "**/.bashrc",
  "**/.bash_profile",
  "**/.bash_login",
  "**/.bash_logout",
  "**/.profile",
  "**/.zshrc",
  "**/.zshenv",
  "**/.zprofile",
  "**/.zlogin",
  "**/.zlogout",
  "**/.config/fish/**",
  "**/.gitconfig",
  "**/.config/git/**",
];

/** Entries under `base`; when `base` is unknown, the same names anchored anywhere (fail closed). */
function under(base: string | undefined, names: readonly string[], platform: NodeJS.Platform) {
  const join = platform === "win32" ? path.win32.join : path.posix.join;
  return names.map((name) => (base === undefined ? `**/${name}` : join(base, name)));
}

/**
 * The platform's system and credential locations (spec §5). `platform` and `home` are
 * parameters: core never reads the environment. Unix platforms other than Linux and
 * macOS get the Linux list.
 */
export function defaultPathPolicy(options: DefaultPathPolicyOptions): PathPolicy {
  const { platform, home } = options;
  const blocked: string[] = [];
  if (platform === "win32") {
    blocked.push(...WINDOWS_SYSTEM);
    if (options.appData !== undefined) {
      blocked.push(...under(options.appData, APPDATA_CREDENTIALS, platform));
    }
  } else {
    blocked.push(...UNIX_SYSTEM);
    if (platform === "darwin") blocked.push(...MACOS_SYSTEM);
  }
  blocked.push(...under(home, HOME_CREDENTIALS, platform));
  if (platform === "darwin") blocked.push(...under(home, MACOS_HOME_CREDENTIALS, platform));
  return Object.freeze({
    blocked: Object.freeze(blocked),
    writeBlocked: Object.freeze([...AGENT_CONFIGURATION]),
  });
}
