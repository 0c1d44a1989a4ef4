// Resolves a resource URL (`/api/v1/namespaces/x/pods/y/log`, `/apis/apps/v1/daemonsets`, legacy
// `/watch/` paths) to the resource type, namespace, name and subresource it addresses.
import type { ObjectStore, ResourceType } from '../store.js'
import { unservedPath } from './not-found.js'
import { servedAt } from './crd-versions.js'

export interface ResourceRoute {
  type: ResourceType
  group: string
  version: string
  namespace?: string
  name?: string
  subresource?: string
  /** The legacy `/watch/` path form was used. */
  watchPath: boolean
}

/** Splits `/api/v1/...` or `/apis/g/v/...` into group, version and the rest; undefined otherwise. */
export function splitApiPath(
  pathname: string
): { group: string; version: string; rest: string[] } | undefined {
  const segs = pathname.split('/').filter(Boolean).map(decodeURIComponent)
  if (segs[0] === 'api' && segs.length >= 2) return { group: '', version: segs[1], rest: segs.slice(2) }
  if (segs[0] === 'apis' && segs.length >= 3) return { group: segs[1], version: segs[2], rest: segs.slice(3) }
  return undefined
}

export function resolveResource(
  store: ObjectStore,
  group: string,
  version: string,
  rest: string[]
): ResourceRoute {
  const notFound = () => unservedPath(store, group, version)
  let segs = rest
  let watchPath = false
  if (segs[0] === 'watch') {
    watchPath = true
    segs = segs.slice(1)
  }
  const find = (plural: string) => {
    const t = store.type(group, plural)
    return t ? servedAt(t, version) : undefined
  }
  let namespace: string | undefined
  let plural: string
  let name: string | undefined
  let subresource: string | undefined
  if (segs[0] === 'namespaces' && segs.length >= 3 && find(segs[2])?.namespaced) {
    namespace = segs[1]
    ;[plural, name, subresource] = segs.slice(2)
    if (segs.length > 5) throw notFound()
  } else {
    ;[plural, name, subresource] = segs
    if (segs.length > 3) throw notFound()
  }
  const type = plural ? find(plural) : undefined
  if (!type) throw notFound()
  if (subresource && !(type.subresources ?? []).includes(subresource)) throw notFound()
  return { type, group, version, namespace, name, subresource, watchPath }
}
