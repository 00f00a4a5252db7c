import { fileURLToPath } from "node:url";

/**
 * The module hooks that let a plain `node` child run a suite's TypeScript
 * (`node --import <this> child.ts`): `ts-loader.mjs` at the package's root, the same
 * from its source and from its build.
 */
export function tsLoaderPath(): string {
  return fileURLToPath(new URL("../ts-loader.mjs", import.meta.url));
}
