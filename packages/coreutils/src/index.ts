// Public surface of @agent-bridle/coreutils: explicit named exports only.
import { cat } from "./cat/cat.js";
import { echo } from "./echo/echo.js";
import { head } from "./head/head.js";
import type { Utility } from "./io/io-context.js";
import { ls } from "./ls/ls.js";
import { sort } from "./sort/sort.js";
import { wc } from "./wc/wc.js";

export type { ByteSink, IoContext, Utility } from "./io/io-context.js";
export { cat, echo, head, ls, sort, wc };

/** The utilities by name. */
export const UTILITIES = Object.freeze({ cat, echo, head, ls, sort, wc } satisfies Record<
  string,
  Utility
>);
export type UtilityName = keyof typeof UTILITIES;

export { carriedEntryPath } from "./carried/carried-entry-path.js";
export type { CarriedInvocation } from "./carried/carried-frame.js";
export {
  type CarriedRun,
  type CarriedSpawnRequest,
  carriedArgv,
  runCarried,
} from "./carried/run-carried.js";
export { checkInProcess, type InProcessSupport } from "./support/check-in-process.js";
