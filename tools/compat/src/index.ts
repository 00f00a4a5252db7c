// The bash-compat runner as a library (the CLI is cli.ts).
export { type CaseDecision, type CaseRun, planCase } from "./case-run.js";
export {
  type CompatCase,
  type CompatFile,
  loadCorpus,
  readCompatFile,
  type TestFile,
} from "./corpus.js";
export {
  type Engine,
  type EnginePlace,
  type EngineResult,
  interpreterEngine,
  NOT_EXECUTED,
  parseOnlyEngine,
} from "./engine.js";
export {
  checkGeneratedAgreement,
  type Divergence,
  type DivergenceKind,
  type GeneratedOptions,
  type GeneratedReport,
} from "./generated-agreement.js";
export { type GeneratedScript, generateScript, generateScripts } from "./grammar/generate.js";
export {
  type AgreementReport,
  checkParseAgreement,
  corpusScripts,
  type Disagreement,
  type ParsedScript,
} from "./parse-agreement.js";
export { formatReport } from "./report.js";
export { type CaseOutcome, type CaseResult, runCorpus } from "./runner.js";
export { parseYaml, type YamlValue } from "./yaml.js";
