import { type Caveats, caveats, none } from "@agent-bridle/core";

/**
 * The authority the reading tools may need, as a ceiling: `fs_read` only (no `fs_write`),
 * everything else as the grant says. A reading tool's context can never write.
 */
export const READ_TOOL_REQUIRED: Caveats = caveats({
  fs_read: "all",
  fs_write: none(),
  exec: "all",
  net: "all",
});
