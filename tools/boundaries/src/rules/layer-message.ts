import type { LayerEntry } from "../layers.js";
import type { Rule } from "../violation.js";

function describe(entry: LayerEntry): string {
  return `${entry.packageName} (layer ${entry.layer})`;
}

/** The rule and advice for `from` depending on `to`, or undefined when the layering allows it. */
export function layerProblem(
  from: LayerEntry,
  to: LayerEntry,
  action: string,
): { rule: Rule; message: string } | undefined {
  if (from.packageName === to.packageName || to.layer < from.layer) return undefined;
  if (from.shellEngine && to.shellEngine) {
    return {
      rule: "engine-to-engine",
      message:
        `${from.packageName} ${action} ${to.packageName}: the shell engines never depend on each ` +
        "other. Move the shared code down into @agent-bridle/sandbox or @agent-bridle/core, " +
        "or compose the engines in agent-bridle (the facade).",
    };
  }
  const advice =
    to.layer === from.layer
      ? "Move the shared code down into a lower layer (for example @agent-bridle/core), or " +
        "compose both packages from a higher layer."
      : `Move what ${from.packageName} needs down into a lower layer, or invert the dependency ` +
        `(${to.packageName} may use ${from.packageName}).`;
  return {
    rule: "layer-order",
    message:
      `${describe(from)} ${action} ${describe(to)}: a package may depend only on layers ` +
      `strictly below its own. ${advice}`,
  };
}
