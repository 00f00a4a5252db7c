/** Longest path text the judge will look at; anything longer is refused before any I/O. */
export const MAX_PATH_TEXT_LENGTH = 32_767;

/**
 * Whether `text` is a plain path: not empty, and free of NUL, C0 and C1 control
 * characters and DEL. A NUL would truncate the path in the kernel (the check would see
 * one path and the open another); control characters have no business in a path a
 * model sends and make reasons and logs ambiguous. Checked before any resolution.
 */
export function isPlainPathText(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) return false;
  }
  return true;
}
