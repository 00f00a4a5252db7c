export { type BinProbe, type BinRun, probeFor } from "./bins.js";
export { installIntoEmptyProject, networkFailure } from "./consumer.js";
export { type EntryPoint, entryPointsOf } from "./entry-points.js";
export {
  type InstalledUse,
  installedLauncherPath,
  installedUseFailures,
  useInstalled,
} from "./installed-use.js";
export { type LintMessage, lintTarball } from "./lint.js";
export { tarballName } from "./pack.js";
export {
  type PackageReport,
  type PackCheckOptions,
  type PackCheckReport,
  packCheck,
  repoRootFrom,
  summaryLine,
} from "./pack-check.js";
export { nativeSourcesDigest, prebuiltSourcesFailure } from "./prebuilt-sources.js";
export { type PublishablePackage, publishablePackages } from "./publishable.js";
