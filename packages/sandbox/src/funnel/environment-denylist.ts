/**
 * Caller variables that never reach a spawned child (spec §6): the reference §3.7 list
 * extended with every variable that chooses a helper program, loads code into a
 * process, or redirects where a program reads its configuration. The four variables
 * the funnel sets itself are listed too: a caller cannot override them.
 */
export const FUNNEL_OWNED_VARIABLES = Object.freeze(["PATH", "LC_ALL", "HOME", "TMPDIR"] as const);

/** Exact names (case-sensitive, as the kernel passes them). */
export const DENIED_VARIABLES: readonly string[] = Object.freeze([
  // reference §3.7
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "DYLD_INSERT_LIBRARIES",
  "DYLD_LIBRARY_PATH",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "NODE_OPTIONS",
  "RUBYOPT",
  "RUBYLIB",
  "PERL5OPT",
  "PERL5LIB",
  "CLASSPATH",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "GIT_SSH_COMMAND",
  "GIT_EXEC_PATH",
  "GIT_TEMPLATE_DIR",
  "BASH_ENV",
  "ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PROMPT_COMMAND",
  // helper programs chosen by a variable
  "PAGER",
  "GIT_PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "EDITOR",
  "VISUAL",
  "LESSOPEN",
  "LESSCLOSE",
  "LESSKEY",
  "BROWSER",
  "SSH_ASKPASS",
  "SSH_ASKPASS_REQUIRE",
  "SUDO_ASKPASS",
  "RIPGREP_CONFIG_PATH",
  // shells: startup code, prompts run on trace, word splitting, search paths
  "PS0",
  "PS1",
  "PS2",
  "PS4",
  "IFS",
  "CDPATH",
  "GLOBIGNORE",
  "ZDOTDIR",
  "INPUTRC",
  // interpreters loading code
  "NODE_PATH",
  "PYTHONHOME",
  "PYTHONINSPECT",
  "PERLLIB",
  "PERL5DB",
  "RUBYGEMS_GEMDEPS",
  // glibc's own unsecure variables (loader, iconv, locale and resolver plug-ins)
  "GLIBC_TUNABLES",
  "GCONV_PATH",
  "LOCPATH",
  "NLSPATH",
  "HOSTALIASES",
  "RESOLV_HOST_CONF",
  "MALLOC_TRACE",
  // configuration roots that make git and others read planted configuration
  "XDG_CONFIG_HOME",
]);

/**
 * Name prefixes: every `GIT_*` (config injection `GIT_CONFIG_*`, helpers `GIT_ASKPASS`,
 * `GIT_EXTERNAL_DIFF`, `GIT_PROXY_COMMAND`, …), every loader variable, and bash's
 * exported functions (`BASH_FUNC_name%%`).
 */
export const DENIED_VARIABLE_PREFIXES: readonly string[] = Object.freeze([
  "GIT_",
  "LD_",
  "DYLD_",
  "BASH_FUNC_",
]);

/** Whether a caller variable is refused: denylisted, funnel-owned, or not a valid name. */
export function isDeniedVariable(name: string): boolean {
  if (name === "" || name.includes("=") || name.includes("\0")) return true;
  if ((FUNNEL_OWNED_VARIABLES as readonly string[]).includes(name)) return true;
  if (DENIED_VARIABLES.includes(name)) return true;
  return DENIED_VARIABLE_PREFIXES.some((prefix) => name.startsWith(prefix));
}
