import type { FileRefusal } from "../paths/file-refusal.js";

/** One exact-text replacement. */
export interface TextEdit {
  readonly old_text: string;
  readonly new_text: string;
}

export type EditOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly refusal: FileRefusal };

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    count += 1;
    if (count > 1) return count;
  }
  return count;
}

/**
 * Applies the edits in order, each to the text the previous ones left: each `old_text`
 * must occur exactly once, else nothing is applied and the refusal names the edit (by
 * its 1-based position, never by echoing file contents).
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): EditOutcome {
  let current = text;
  for (const [index, edit] of edits.entries()) {
    const count = occurrences(current, edit.old_text);
    if (count === 0) {
      return {
        ok: false,
        refusal: {
          code: "FS_EDIT_NOT_FOUND",
          explanation: `edit ${index + 1}'s old_text does not occur in the file${index > 0 ? " after the edits before it" : ""}; nothing was written: read the file and copy the text exactly, whitespace and line ends included`,
        },
      };
    }
    if (count > 1) {
      return {
        ok: false,
        refusal: {
          code: "FS_EDIT_NOT_UNIQUE",
          explanation: `edit ${index + 1}'s old_text occurs more than once in the file; nothing was written: include more of the surrounding lines so it matches one place`,
        },
      };
    }
    const at = current.indexOf(edit.old_text);
    current = current.slice(0, at) + edit.new_text + current.slice(at + edit.old_text.length);
  }
  return { ok: true, text: current };
}
