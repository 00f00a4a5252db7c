import type { OptionSpec, ParsedOption } from "../options/option-spec.js";

const none = (name: string, key: string) => ({ name, argument: "none" as const, key });
const required = (name: string, key: string) => ({ name, argument: "required" as const, key });
const optional = (name: string, key: string) => ({ name, argument: "optional" as const, key });

export const LS_SPEC: OptionSpec = {
  short: "abcdfghiklmnopqrstuvw:xABCDFGHI:LNQRST:UXZ1",
  long: [
    none("all", "a"),
    none("escape", "b"),
    none("directory", "d"),
    none("dired", "D"),
    none("full-time", "full-time"),
    none("group-directories-first", "group-directories-first"),
    none("human-readable", "h"),
    none("inode", "i"),
    none("kibibytes", "k"),
    none("numeric-uid-gid", "n"),
    none("no-group", "G"),
    none("hide-control-chars", "q"),
    none("reverse", "r"),
    none("size", "s"),
    required("width", "w"),
    none("almost-all", "A"),
    none("ignore-backups", "B"),
    optional("classify", "classify"),
    none("file-type", "file-type"),
    none("si", "si"),
    none("dereference-command-line", "H"),
    none("dereference-command-line-symlink-to-dir", "dereference-command-line-symlink-to-dir"),
    required("hide", "hide"),
    required("ignore", "I"),
    required("indicator-style", "indicator-style"),
    none("dereference", "L"),
    none("literal", "N"),
    none("quote-name", "Q"),
    required("quoting-style", "quoting-style"),
    none("recursive", "R"),
    required("format", "format"),
    none("show-control-chars", "show-control-chars"),
    required("sort", "sort"),
    required("tabsize", "T"),
    required("time", "time"),
    required("time-style", "time-style"),
    none("zero", "zero"),
    optional("color", "color"),
    optional("hyperlink", "hyperlink"),
    required("block-size", "block-size"),
    none("context", "Z"),
    none("author", "author"),
    none("help", "help"),
    none("version", "version"),
  ],
};

export type LsSortKey = "name" | "time" | "size";

export interface LsSettings {
  all: "default" | "almost" | "all";
  directoryAsFile: boolean;
  long: boolean;
  human: boolean;
  recursive: boolean;
  reverse: boolean;
  sortKey: LsSortKey;
  classify: boolean;
}

export type LsSettingsResult =
  | { readonly ok: true; readonly settings: LsSettings }
  | { readonly ok: false; readonly spelling: string };

export function lsSettings(options: readonly ParsedOption[]): LsSettingsResult {
  const settings: LsSettings = {
    all: "default",
    directoryAsFile: false,
    long: false,
    human: false,
    recursive: false,
    reverse: false,
    sortKey: "name",
    classify: false,
  };
  for (const option of options) {
    switch (option.key) {
      case "a":
        settings.all = "all";
        break;
      case "A":
        settings.all = "almost";
        break;
      case "d":
        settings.directoryAsFile = true;
        break;
      case "l":
        settings.long = true;
        break;
      case "1":
        // GNU: -1 has no effect after -l.
        break;
      case "h":
        settings.human = true;
        break;
      case "R":
        settings.recursive = true;
        break;
      case "r":
        settings.reverse = true;
        break;
      case "t":
        settings.sortKey = "time";
        break;
      case "S":
        settings.sortKey = "size";
        break;
      case "F":
        settings.classify = true;
        break;
      default:
        return { ok: false, spelling: option.spelling };
    }
  }
  return { ok: true, settings };
}
