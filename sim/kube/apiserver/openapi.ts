// A skeletal OpenAPI v3 surface: the /openapi/v3 index and one document per group-version whose
// PATCH operations carry x-kubernetes-group-version-kind and the write query parameters. That is
// what kubectl reads to learn the server validates fields itself (`fieldValidation`), so
// `kubectl apply` works without `--validate=false`. Schemas are not published.
import type { ObjectStore, ResourceType } from '../store.js'
import { apiVersionOf } from '../store.js'

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`
}

export function openApiV3Index(store: ObjectStore): Record<string, unknown> {
  const paths: Record<string, { serverRelativeURL: string }> = {}
  for (const t of store.types()) {
    const p = gvPath(t.group, t.version)
    paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hashOf(store, t.group, t.version)}` }
  }
  return { paths }
}

function hashOf(store: ObjectStore, group: string, version: string): string {
  const names = store
    .types()
    .filter(t => t.group === group && t.version === version)
    .map(t => `${t.plural}:${t.kind}:${t.namespaced}`)
    .sort()
    .join(',')
  let h = 0
  for (const ch of names) h = (h * 31 + ch.charCodeAt(0)) >>> 0
  return h.toString(16).padStart(8, '0').toUpperCase()
}

const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map(name => ({
  name,
  in: 'query',
  schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true }
}))

function objectPath(t: ResourceType): string {
  const base = `/${t.group ? 'apis/' + t.group : 'api'}/${t.version}`
  return t.namespaced ? `${base}/namespaces/{namespace}/${t.plural}/{name}` : `${base}/${t.plural}/{name}`
}

/** The document for `/openapi/v3/api/v1` or `/openapi/v3/apis/<g>/<v>`; undefined when unknown. */
export function openApiV3Doc(store: ObjectStore, pathname: string): Record<string, unknown> | undefined {
  const rest = pathname.replace(/^\/openapi\/v3\//, '').split('/')
  const [group, version] =
    rest[0] === 'api' && rest.length === 2 ? ['', rest[1]] : rest.length === 3 ? [rest[1], rest[2]] : []
  if (version === undefined) return undefined
  const types = store.types().filter(t => t.group === group && t.version === version)
  if (!types.length) return undefined
  const paths: Record<string, unknown> = {}
  for (const t of types) {
    paths[objectPath(t)] = {
      patch: {
        operationId: `patch${t.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': { group: t.group, version: t.version, kind: t.kind },
        parameters: WRITE_PARAMS,
        responses: { '200': { description: 'OK' } }
      }
    }
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: apiVersionOf(types[0]) },
    paths,
    components: { schemas: {} }
  }
}
