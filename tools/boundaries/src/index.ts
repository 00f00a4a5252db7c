// Public surface of the boundary check (dev-only tool).
export { type BoundaryReport, checkBoundaries, scanBoundaries } from "./check-boundaries.js";
export { formatViolation } from "./format-violation.js";
export {
  type GuardrailOptions,
  type GuardrailReport,
  scanGuardrails,
} from "./guardrails/scan-guardrails.js";
export { LAYERS, type LayerEntry } from "./layers.js";
export type { Rule, Violation } from "./violation.js";
