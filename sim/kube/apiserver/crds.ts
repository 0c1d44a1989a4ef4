// The CRD controller: a CustomResourceDefinition in the store registers its served version as a
// resource type (with shortNames, scope and the status subresource), gets Established /
// NamesAccepted conditions, and deleting it unregisters the type. Also keeps each CRD's schema
// (its structural openAPIV3Schema: pruning, defaulting and validation of its custom resources,
// list semantics of apply) and printer columns for table output.
import type { KubeObject, ObjectStore, ResourceType } from '../store.js'
import { typeKey } from '../store.js'
import { type ListOracle, builtinListOracle, schemaListOracle } from './fieldpaths.js'
import { nowTime } from './managed.js'
import type { SchemaRoot } from './schemas.js'
import { BUILTIN_GROUPS } from '../resources.js'

export interface CrdInfo {
  type: ResourceType
  crdName: string
  oracle: ListOracle
  /** The served version's openAPIV3Schema (absent when the CRD gives none). */
  schema?: SchemaRoot
  /** Field selector labels the version adds (`spec.color` for a `.spec.color` selectableField). */
  selectableFields: string[]
  printerColumns: Array<{ name: string; type: string; jsonPath: string; priority?: number }>
}

const installed = new WeakMap<ObjectStore, Map<string, CrdInfo>>()

const CRD_GROUP = 'apiextensions.k8s.io'

/** The resource type a CRD object defines (served storage version, else first served). */
export function typeFromCrd(crd: KubeObject): { type: ResourceType; version: any } | undefined {
  const spec = crd.spec ?? {}
  const names = spec.names ?? {}
  const versions: any[] = (spec.versions ?? []).filter((v: any) => v.served !== false)
  const version = versions.find(v => v.storage) ?? versions[0]
  if (!spec.group || !names.plural || !names.kind || !version) return undefined
  return {
    version,
    type: {
      group: spec.group,
      version: version.name,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      kind: names.kind,
      namespaced: spec.scope !== 'Cluster',
      verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
      ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
      ...(version.subresources?.status ? { subresources: ['status'] } : {})
    }
  }
}

/** What the store says about a custom type's CRD, if `t` is one. */
export function crdInfo(store: ObjectStore, t: ResourceType): CrdInfo | undefined {
  return installed.get(store)?.get(typeKey(t))
}

/** How lists of `t` merge: CRD schema markers for custom types, the built-in table otherwise. */
export function listOracleFor(store: ObjectStore, t: ResourceType): ListOracle {
  return (
    crdInfo(store, t)?.oracle ??
    (BUILTIN_GROUPS.has(t.group) ? builtinListOracle : schemaListOracle(undefined))
  )
}

function establish(store: ObjectStore, crdType: ResourceType, name: string): void {
  store.mutate(
    crdType,
    undefined,
    name,
    crd => {
      const conditions: any[] = crd.status?.conditions ?? []
      const want = [
        { type: 'NamesAccepted', reason: 'NoConflicts', message: 'no conflicts found' },
        {
          type: 'Established',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted'
        }
      ]
      const next = want.map(w => {
        const have = conditions.find(c => c.type === w.type && c.status === 'True')
        return have ?? { ...w, status: 'True', lastTransitionTime: nowTime() }
      })
      const storage = typeFromCrd(crd)?.version.name
      crd.status = {
        ...crd.status,
        conditions: next,
        acceptedNames: crd.spec.names,
        storedVersions: crd.status?.storedVersions?.length
          ? crd.status.storedVersions
          : storage
            ? [storage]
            : []
      }
    },
    { subresource: 'status' }
  )
}

/**
 * Watches the store for CRDs and keeps custom types registered. Idempotent per store; returns
 * nothing because the controller lives as long as the store.
 */
export function installCrdController(store: ObjectStore): void {
  if (installed.has(store)) return
  const infos = new Map<string, CrdInfo>()
  installed.set(store, infos)
  const crdType = store.type(CRD_GROUP, 'customresourcedefinitions')
  if (!crdType) throw new Error('installCrdController: register the built-in types first')

  const register = (crd: KubeObject) => {
    const found = typeFromCrd(crd)
    if (!found) return
    const { type, version } = found
    store.registerType(type)
    infos.set(typeKey(type), {
      type,
      crdName: crd.metadata.name,
      oracle: schemaListOracle(version.schema?.openAPIV3Schema),
      ...(version.schema?.openAPIV3Schema
        ? { schema: { schema: version.schema.openAPIV3Schema, defs: {}, builtin: false } }
        : {}),
      selectableFields: (version.selectableFields ?? []).map((f: { jsonPath: string }) =>
        f.jsonPath.replace(/^\./, '')
      ),
      printerColumns: version.additionalPrinterColumns ?? []
    })
    const established = (crd.status?.conditions ?? []).some(
      (c: any) => c.type === 'Established' && c.status === 'True'
    )
    if (!established) setImmediate(() => establish(store, crdType, crd.metadata.name))
  }

  for (const crd of store.list(crdType).items) register(crd)
  store.onChange((event, t) => {
    if (typeKey(t) !== typeKey(crdType)) return
    const found = typeFromCrd(event.object)
    if (event.type === 'DELETED') {
      if (found && store.type(found.type.group, found.type.plural)) {
        store.unregisterType(found.type)
        infos.delete(typeKey(found.type))
      }
    } else if (event.type === 'ADDED' || event.type === 'MODIFIED') register(event.object)
  })
}
