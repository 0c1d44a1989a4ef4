// The CRDs a simulated chart installs, from the upstream files of its version: a file
// `<chart>-<version>.yaml` holds the chart's own crds/ directory, `<chart>-<version>-<subchart>.yaml`
// a subchart's (node-feature-discovery). A chart version with no file of its own gets the files of
// the nearest version below it (else the lowest there is), so pinning a new version is adding its
// files. The schemas are the real structural ones: the API server prunes, defaults and validates
// custom resources with them, and `kubectl explain` reads them.
import { parseAllDocuments } from 'yaml'
import type { KubeObject } from '../store.js'
import { crdFiles } from './files.js'

const cache = new Map<string, KubeObject[]>()

/** `v26.4.0` → [26, 4, 0] for ordering. */
function versionKey(v: string): number[] {
  return v
    .replace(/^v/, '')
    .split(/[.-]/)
    .map(p => (/^\d+$/.test(p) ? Number(p) : 0))
}

function compare(a: string, b: string): number {
  const ka = versionKey(a)
  const kb = versionKey(b)
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    const d = (ka[i] ?? 0) - (kb[i] ?? 0)
    if (d) return d
  }
  return 0
}

/** The versions with files for `chart` (and `part`), oldest first. */
export function crdVersions(chart: string, part?: string): string[] {
  const re = /^(.+?)-(v\d+(?:\.\d+)*)(?:-(.+))?\.yaml$/
  return Object.keys(crdFiles())
    .map(name => re.exec(name))
    .filter(m => !!m && m[1] === chart && (m[3] ?? undefined) === part)
    .map(m => m![2])
    .sort(compare)
}

/** Which version's files serve `version` of `chart`. */
export function crdVersionFor(chart: string, version: string, part?: string): string | undefined {
  const have = crdVersions(chart, part)
  if (!have.length) return undefined
  return [...have].reverse().find(v => compare(v, version) <= 0) ?? have[0]
}

/** The CRDs `chart` at `version` installs (its own, or a subchart's with `part`). */
export function chartCrds(chart: string, version: string, part?: string): KubeObject[] {
  const v = crdVersionFor(chart, version, part)
  if (!v) return []
  const file = `${chart}-${v}${part ? `-${part}` : ''}.yaml`
  let docs = cache.get(file)
  if (!docs) {
    docs = parseAllDocuments(crdFiles()[file])
      .map(d => d.toJS() as KubeObject)
      .filter(o => o?.kind === 'CustomResourceDefinition')
    cache.set(file, docs)
  }
  return structuredClone(docs)
}
