// The scenario's `setup` key: change the world behind the action's back before the measured run
// (drift and verify scenarios). Kubernetes objects get a merge patch in which lists of named
// objects (containers, volumes, env) merge by name as a strategic merge patch does; Azure agent
// pools get fields set (a `count` also scales the nodes).
import type { World } from './world.js'

type Json = Record<string, unknown>

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function isNamedList(v: unknown): v is Json[] {
  return Array.isArray(v) && v.length > 0 && v.every(e => isObject(e) && typeof e.name === 'string')
}

/** Merge patch with by-name merging of named lists; `null` deletes a field. */
export function strategicMerge(target: unknown, patch: unknown): unknown {
  if (isObject(target) && isObject(patch)) {
    const out: Json = { ...target }
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete out[k]
      else out[k] = strategicMerge(out[k], v)
    }
    return out
  }
  if (isNamedList(target) && isNamedList(patch)) {
    const out = target.map(e => ({ ...e }))
    for (const p of patch) {
      const i = out.findIndex(e => e.name === p.name)
      if (i >= 0) out[i] = strategicMerge(out[i], p) as Json
      else out.push(p)
    }
    return out
  }
  return patch
}

export interface Mutation {
  apiVersion?: string
  kind?: string
  namespace?: string
  name: string
  mergePatch?: Json
  azure?: 'agentPool'
  set?: Json
  delete?: boolean
}

export function applyMutations(world: World, mutations: Mutation[]): string[] {
  const done: string[] = []
  for (const m of mutations) {
    if (m.azure === 'agentPool') {
      world.azure.setPool(m.name, m.set ?? {})
      done.push(`agentPool ${m.name}: set ${JSON.stringify(m.set)}`)
      continue
    }
    const type = world.kube.store.typeForKind(m.apiVersion ?? '', m.kind ?? '')
    if (!type) throw new Error(`setup.mutate: unknown kind ${m.apiVersion}/${m.kind}`)
    if (m.delete) {
      world.kube.store.delete(type, m.namespace, m.name)
      done.push(`${m.kind} ${m.name}: deleted`)
      continue
    }
    const live = world.kube.store.get(type, m.namespace, m.name)
    const next = strategicMerge(live, m.mergePatch ?? {}) as typeof live
    world.kube.store.update(type, {
      ...next,
      metadata: { ...next.metadata, resourceVersion: undefined }
    } as typeof live)
    done.push(`${m.kind} ${m.namespace ? m.namespace + '/' : ''}${m.name}: patched`)
  }
  return done
}
