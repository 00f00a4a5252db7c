/** The shell's `set -o` options: their names and the `set` letters that stand for them. */
export const OPTION_NAMES = [
  "allexport",
  "braceexpand",
  "emacs",
  "errexit",
  "errtrace",
  "functrace",
  "hashall",
  "histexpand",
  "history",
  "ignoreeof",
  "interactive-comments",
  "keyword",
  "monitor",
  "noclobber",
  "noexec",
  "noglob",
  "nolog",
  "notify",
  "nounset",
  "onecmd",
  "physical",
  "pipefail",
  "posix",
  "privileged",
  "verbose",
  "vi",
  "xtrace",
] as const;

export type OptionName = (typeof OPTION_NAMES)[number];

/** `set -o` options by name. */
export type ShellOptions = Record<OptionName, boolean>;

/** `set` letters and the options they stand for. */
export const OPTION_LETTERS: Readonly<Record<string, OptionName>> = {
  a: "allexport",
  B: "braceexpand",
  e: "errexit",
  E: "errtrace",
  T: "functrace",
  h: "hashall",
  H: "histexpand",
  k: "keyword",
  m: "monitor",
  C: "noclobber",
  n: "noexec",
  f: "noglob",
  b: "notify",
  u: "nounset",
  t: "onecmd",
  P: "physical",
  p: "privileged",
  v: "verbose",
  x: "xtrace",
};

export function isOptionName(name: string): name is OptionName {
  return (OPTION_NAMES as readonly string[]).includes(name);
}
