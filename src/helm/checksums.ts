// The pinned SHA-256 of every helm release archive the action may download, per version and platform.
// Their sources and how to add a version: docs/security.md#helm-is-checked-against-pinned-sha-256-values.

/** `<os>-<arch>` (helm's names: linux-amd64, darwin-arm64, windows-amd64 ...) → archive SHA-256. */
export type HelmPlatformSums = Readonly<Record<string, string>>

/** helm version (vX.Y.Z) → its archives' SHA-256 by platform. */
export type HelmChecksums = Readonly<Record<string, HelmPlatformSums>>

export const HELM_CHECKSUMS: HelmChecksums = {
  'v3.19.0': {
    'darwin-amd64': '09a108c0abda42e45af172be65c49125354bf7cd178dbe10435e94540e49c7b9',
    'darwin-arm64': '31513e1193da4eb4ae042eb5f98ef9aca7890cfa136f4707c8d4f70e2115bef6',
    'linux-amd64': 'a7f81ce08007091b86d8bd696eb4d86b8d0f2e1b9f6c714be62f82f96a594496',
    'linux-arm': '8708367b8e8bed9bdf8429bb57536e4223cdca96245dffc205cb0cb670b151f4',
    'linux-arm64': '440cf7add0aee27ebc93fada965523c1dc2e0ab340d4348da2215737fc0d76ad',
    'linux-386': 'ca0329cd1b09267e7c63c563e32462265949c31512b537dd6615d0b5190040fc',
    'linux-ppc64le': 'f57ea04d7fa62cc3e90a831eb67edb1400c810df6083875bee3a7c195a795ce4',
    'linux-s390x': '0dff2f249f71690e3b420ebb5efc573eb26a51b4a614c4391c8c7fa3e47863f2',
    'linux-riscv64': '978af545a3d72a253ce1d4c03c9febb509a239a48b2581107e548883ab61a227',
    'windows-amd64': '6488630c2e5d5945ed990fa02fd9e99f9c6792cdbcd79eb264b6cfb90179d2d1',
    'windows-arm64': '488f7530a1776da1b46b14e988bf305c9d7419c78e7e73aeb92f198a41c9ef6b'
  }
}

/** The versions with pinned checksums, oldest first. */
export function helmChecksumVersions(sums: HelmChecksums = HELM_CHECKSUMS): string[] {
  return Object.keys(sums).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
}
