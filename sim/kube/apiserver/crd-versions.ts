// A custom resource served at each of its CRD's served versions with conversion `None`
// (kubernetes/apiextensions-apiserver@v0.33.2 pkg/apiserver/conversion/nop_converter.go: only
// apiVersion changes): a request names a version, sees every object at it, and its writes are
// stored at the storage version. Discovery lists group versions by Kubernetes version priority
// (k8s.io/apimachinery@v0.33.2 pkg/version/helpers.go `CompareKubeAwareVersionStrings`: GA, then
// beta, then alpha, higher numbers first; others after, alphabetically).
import type { ResourceType } from '../store.js'
import { apiVersionOf } from '../store.js'
import { isPlainObject } from './fieldpaths.js'

/** `t` as a request for `version` sees it, when `t` serves that version. */
export function servedAt(t: ResourceType, version: string): ResourceType | undefined {
  if (t.version === version) return t
  return t.versions?.includes(version) ? { ...t, version } : undefined
}

/** `obj` (or each item / table row of a list) with the apiVersion of `t`'s version, in place. */
export function atVersion<T>(body: T, t: ResourceType): T {
  if (!t.versions || !isPlainObject(body)) return body
  const want = apiVersionOf(t)
  const group = t.group + '/'
  const one = (o: unknown) => {
    if (
      isPlainObject(o) &&
      o.kind === t.kind &&
      typeof o.apiVersion === 'string' &&
      o.apiVersion.startsWith(group)
    )
      o.apiVersion = want
  }
  one(body)
  if (Array.isArray(body.items)) body.items.forEach(one)
  if (Array.isArray(body.rows)) for (const row of body.rows) one(row?.object)
  return body
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/

/** Kubernetes version priority: v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > anything else (a–z). */
export function byVersionPriority(a: string, b: string): number {
  const x = KUBE_VERSION.exec(a)
  const y = KUBE_VERSION.exec(b)
  if (!x || !y) return x ? -1 : y ? 1 : a < b ? -1 : a > b ? 1 : 0
  const rank = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0)
  if (rank(x) !== rank(y)) return rank(y) - rank(x)
  if (x[1] !== y[1]) return Number(y[1]) - Number(x[1])
  return Number(y[3] ?? 0) - Number(x[3] ?? 0)
}
