import type { Violation } from "../violation.js";
import type { FileContext } from "./file-context.js";

// The bash language is written once, in @agent-bridle/bash (ADR 0022): no other package's
// shipped source has a `parse/` folder or a lexer, parser or globber of its own.
const PARSER_FILE = /(^|\/)src\/(.+\/)?(parse\/.+|(lexer|parser|tokenizer)\.[cm]?[jt]s)$/;
const GLOBBER_FILE = /(^|\/)src\/(.+\/)?[^/]*glob[^/]*\.[cm]?[jt]s$/;

/**
 * Known exceptions, each with the reason it is still there. An entry whose file is gone is
 * harmless; remove it with the file.
 */
export const LANGUAGE_EXCEPTIONS: ReadonlyMap<string, string> = new Map([]);

/** A second bash parser or globber outside @agent-bridle/bash, unless listed above. */
export function checkOneBashLanguage(context: FileContext): Violation | undefined {
  if (context.owner.area !== "packages" || context.folder !== "src") return undefined;
  if (context.owner.layer?.directory === "bash") return undefined;
  const file = context.relativeFile;
  const parser = PARSER_FILE.test(file);
  if (!parser && !GLOBBER_FILE.test(file)) return undefined;
  if (LANGUAGE_EXCEPTIONS.has(file)) return undefined;
  return {
    file,
    line: 1,
    rule: "second-bash-language",
    message:
      `${file} looks like a second bash ${parser ? "parser" : "globber"}: the bash language ` +
      "lives in @agent-bridle/bash (ADR 0022). Import parseBash, matchPattern or " +
      "expandPathname from it, and build on its AST, instead of reading bash again.",
  };
}
