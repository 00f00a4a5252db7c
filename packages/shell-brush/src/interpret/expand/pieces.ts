/** The intermediate form of expansion: text pieces (quoted or not, splittable or not). */

export type Piece =
  | {
      readonly kind: "text";
      readonly text: string;
      readonly quoted: boolean;
      readonly split: boolean;
    }
  | { readonly kind: "break"; readonly hard: boolean; readonly star: boolean };

/** One field after splitting: its text, its pattern form and whether it may glob. */
export interface Field {
  text: string;
  pattern: string;
  glob: boolean;
}
