// Deciding whether a helm release must be upgraded: not installed, not `deployed`, another chart
// version, or different user values. Values are compared as canonical JSON (sorted keys, after a
// JSON round trip) because helm returns them re-parsed (numbers and booleans typed, undefined gone).

export interface DesiredRelease {
  /** Chart version, e.g. `v26.3.3` (a missing `v` prefix compares equal). */
  version: string
  values: Record<string, unknown>
}

export interface LiveRelease {
  chartVersion: string
  status: string
  values: Record<string, unknown> | null | undefined
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** JSON with object keys sorted at every level; `undefined` fields dropped as JSON does. */
export function canonicalJson(value: unknown): string {
  const normalised = JSON.parse(JSON.stringify(value ?? {}))
  return JSON.stringify(normalised, (_k, v) =>
    isMap(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map(k => [k, v[k]])
        )
      : v
  )
}

const bare = (v: string): string => v.trim().replace(/^v/, '')

/** Why the release needs `helm upgrade --install`, or undefined when it is already as desired. */
export function upgradeReason(desired: DesiredRelease, live: LiveRelease | undefined): string | undefined {
  if (!live) return 'not installed'
  if (live.status !== 'deployed') return `release status is ${live.status}`
  if (bare(live.chartVersion) !== bare(desired.version))
    return `chart ${live.chartVersion} → ${desired.version}`
  if (canonicalJson(live.values ?? {}) !== canonicalJson(desired.values ?? {})) return 'values differ'
  return undefined
}

/** True unless the release is deployed with the same chart version and deep-equal values. */
export function needsUpgrade(desired: DesiredRelease, live: LiveRelease | undefined): boolean {
  return upgradeReason(desired, live) !== undefined
}

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/

/** Semver's order of pre-release identifiers (numeric ones numerically and before the others). */
function comparePrerelease(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0
  if (a === undefined) return 1
  if (b === undefined) return -1
  const pa = a.split('.')
  const pb = b.split('.')
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const [x, y] = [pa[i], pb[i]]
    if (x === y) continue
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)]
    if (nx && ny) return Number(x) - Number(y)
    if (nx !== ny) return nx ? -1 : 1
    return x < y ? -1 : 1
  }
  return pa.length - pb.length
}

/**
 * Orders two versions: `< 0` when `a` is older than `b`, `0` when the same, `> 0` when newer, or
 * undefined when they cannot be ordered. Chart versions (`v26.7.0`, `26.3.3`, `v26.7.0-rc.1`) are
 * ordered as semver orders them (a leading `v` ignored, a pre-release before its release); other
 * versions (`doca3.4.1-26.04-1.1.0.0-1`) by their numbers in turn, and only when both have the same
 * form (the same text between the numbers): a version of another form is not comparable.
 */
export function compareVersions(a: string, b: string): number | undefined {
  const [x, y] = [a.trim(), b.trim()]
  const sa = SEMVER.exec(x)
  const sb = SEMVER.exec(y)
  if (sa && sb) {
    for (let i = 1; i <= 3; i++) {
      const d = Number(sa[i]) - Number(sb[i])
      if (d) return Math.sign(d)
    }
    return Math.sign(comparePrerelease(sa[4], sb[4]))
  }
  const form = (v: string): string => v.replace(/\d+/g, '#')
  if (form(x) !== form(y) || !/\d/.test(x)) return x === y ? 0 : undefined
  const na = (x.match(/\d+/g) ?? []).map(Number)
  const nb = (y.match(/\d+/g) ?? []).map(Number)
  for (let i = 0; i < na.length; i++) if (na[i] !== nb[i]) return Math.sign(na[i] - nb[i])
  return 0
}

/** True only when `live` is known to be newer than `desired` (versions that cannot be ordered are not). */
export function isNewerVersion(live: string, desired: string): boolean {
  return (compareVersions(live, desired) ?? 0) > 0
}
