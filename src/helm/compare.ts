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
