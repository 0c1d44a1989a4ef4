// Helm for the action: getting a verified binary (ensureHelm), running it (Helm) and deciding
// whether a release needs an upgrade (needsUpgrade / upgradeReason).
export {
  ensureHelm,
  helmArch,
  helmOs,
  normaliseHelmVersion,
  HELM_DOWNLOAD_BASE_URL,
  type EnsureHelmOptions
} from './install.js'
export {
  Helm,
  HelmCommandError,
  PLAN_VALUES_FILE,
  templateCrdsArgv,
  type HelmOptions,
  type HelmReleaseStatus,
  type UpgradeInstallOptions
} from './helm.js'
export {
  canonicalJson,
  compareVersions,
  isNewerVersion,
  needsUpgrade,
  upgradeReason,
  type DesiredRelease,
  type LiveRelease
} from './compare.js'
