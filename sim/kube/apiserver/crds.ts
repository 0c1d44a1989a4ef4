// The CRD controller: a CustomResourceDefinition in the store registers a resource type stored at
// its storage version and served at every `served: true` version (conversion None: only apiVersion
// changes; crd-versions.ts), with shortNames, categories, scope and the status and scale
// subresources, gets Established / NamesAccepted conditions, and deleting it unregisters the type.
// Also keeps each version's schema (its structural openAPIV3Schema: pruning, defaulting and
// validation of its custom resources, list semantics of apply), printer columns, selectable fields
// and scale paths.
import type { KubeObject, ObjectStore, ResourceType } from '../store.js'
import { typeKey } from '../store.js'
import { type ListOracle, builtinListOracle, schemaListOracle } from './fieldpaths.js'
import { nowTime } from './managed.js'
import type { SchemaRoot } from './schemas.js'
import { BUILTIN_GROUPS } from '../resources.js'

/** Where a custom resource keeps what its /scale subresource shows (`.spec.replicas`, …). */
export interface ScalePaths {
  specReplicasPath: string
  statusReplicasPath: string
  labelSelectorPath?: string
}

export interface CrdInfo {
  type: ResourceType
  crdName: string
  /** The version these facts are for (the storage version, or the one a request named). */
  version: string
  oracle: ListOracle
  /** The served version's openAPIV3Schema (absent when the CRD gives none). */
  schema?: SchemaRoot
  /** Field selector labels the version adds (`spec.color` for a `.spec.color` selectableField). */
  selectableFields: string[]
  printerColumns: Array<{ name: string; type: string; jsonPath: string; priority?: number }>
  scale?: ScalePaths
}

/** Per custom type: each served version's facts, by version name. */
const installed = new WeakMap<ObjectStore, Map<string, Map<string, CrdInfo>>>()

const CRD_GROUP = 'apiextensions.k8s.io'

/**
 * The resource type a CRD object defines: stored at its storage version (else the first served),
 * served at every served version; `versions` holds the served ones (their CRD entries).
 */
export function typeFromCrd(
  crd: KubeObject
): { type: ResourceType; version: any; versions: any[] } | undefined {
  const spec = crd.spec ?? {}
  const names = spec.names ?? {}
  const versions: any[] = (spec.versions ?? []).filter((v: any) => v.served !== false)
  const version = versions.find(v => v.storage) ?? versions[0]
  if (!spec.group || !names.plural || !names.kind || !version) return undefined
  const subresources = [
    ...(versions.some(v => v.subresources?.status) ? ['status'] : []),
    ...(versions.some(v => v.subresources?.scale) ? ['scale'] : [])
  ]
  return {
    version,
    versions,
    type: {
      group: spec.group,
      version: version.name,
      ...(versions.length > 1 ? { versions: versions.map(v => String(v.name)) } : {}),
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      kind: names.kind,
      namespaced: spec.scope !== 'Cluster',
      verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
      ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
      ...(names.categories?.length ? { categories: names.categories } : {}),
      ...(subresources.length ? { subresources } : {})
    }
  }
}

/** What the store says about a custom type's CRD at `t`'s version, if `t` is one. */
export function crdInfo(store: ObjectStore, t: ResourceType): CrdInfo | undefined {
  const byVersion = installed.get(store)?.get(typeKey(t))
  if (!byVersion) return undefined
  return byVersion.get(t.version) ?? byVersion.values().next().value
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
  const infos = new Map<string, Map<string, CrdInfo>>()
  installed.set(store, infos)
  const crdType = store.type(CRD_GROUP, 'customresourcedefinitions')
  if (!crdType) throw new Error('installCrdController: register the built-in types first')

  const register = (crd: KubeObject) => {
    const found = typeFromCrd(crd)
    if (!found) return
    const { type, version: storage, versions } = found
    store.registerType(type)
    const byVersion = new Map<string, CrdInfo>()
    for (const version of [storage, ...versions.filter(v => v !== storage)])
      byVersion.set(String(version.name), {
        type,
        crdName: crd.metadata.name,
        version: String(version.name),
        oracle: schemaListOracle(version.schema?.openAPIV3Schema),
        ...(version.schema?.openAPIV3Schema
          ? { schema: { schema: version.schema.openAPIV3Schema, defs: {}, builtin: false } }
          : {}),
        selectableFields: (version.selectableFields ?? []).map((f: { jsonPath: string }) =>
          f.jsonPath.replace(/^\./, '')
        ),
        printerColumns: version.additionalPrinterColumns ?? [],
        ...(version.subresources?.scale ? { scale: version.subresources.scale } : {})
      })
    infos.set(typeKey(type), byVersion)
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
