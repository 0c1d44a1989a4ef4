// The scale subresource of Deployments, ReplicaSets and StatefulSets (what `kubectl scale` and
// autoscalers use): an autoscaling/v1 Scale read from the workload, and written back (PUT, or a
// JSON / merge / strategic patch of the Scale) as a change of spec.replicas only. Custom resources
// whose CRD declares `subresources.scale` keep them at its paths (kubernetes/apiextensions-apiserver
// @v0.33.2 pkg/registry/customresource/etcd.go `scaleFromCustomResource`: a missing spec value is
// 0, the selector a string at labelSelectorPath).
import type { KubeObject } from '../store.js'
import {
  type Reply,
  type VerbEnv,
  type VerbRequest,
  commit,
  getLive,
  managerOf,
  parseBody,
  writeContext
} from './handlers.js'
import { managedAfterUpdate } from './managed.js'
import { jsonPatch, mergePatch } from './patch.js'
import { ApiError } from './status.js'
import { selectorString } from '../selectors.js'
import { type ScalePaths, crdInfo } from './crds.js'

/** `.spec.replicas` → ['spec', 'replicas']. */
const pathOf = (p: string) => p.replace(/^\./, '').split('.').filter(Boolean)

function readAt(obj: unknown, path: string): unknown {
  let cur: any = obj
  for (const k of pathOf(path)) cur = cur && typeof cur === 'object' ? cur[k] : undefined
  return cur
}

function writeAt(obj: Record<string, any>, path: string, value: unknown): void {
  const keys = pathOf(path)
  let cur = obj
  for (const k of keys.slice(0, -1)) cur = cur[k] && typeof cur[k] === 'object' ? cur[k] : (cur[k] = {})
  cur[keys[keys.length - 1]] = value
}

const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : 0)

export function scaleOf(obj: KubeObject, paths?: ScalePaths): KubeObject {
  const m = obj.metadata
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      ...(m.namespace ? { namespace: m.namespace } : {}),
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp
    },
    ...(paths
      ? {
          spec: { replicas: int(readAt(obj, paths.specReplicasPath)) },
          status: {
            replicas: int(readAt(obj, paths.statusReplicasPath)),
            ...(paths.labelSelectorPath && typeof readAt(obj, paths.labelSelectorPath) === 'string'
              ? { selector: readAt(obj, paths.labelSelectorPath) }
              : {})
          }
        }
      : {
          spec: { replicas: obj.spec?.replicas ?? 1 },
          status: { replicas: obj.status?.replicas ?? 0, selector: selectorString(obj.spec?.selector) }
        })
  }
}

export function getScale(env: VerbEnv, r: VerbRequest): Reply {
  return { status: 200, body: scaleOf(getLive(env, r.route), crdInfo(env.store, r.route.type)?.scale) }
}

/** PUT or PATCH of …/scale: the new Scale's spec.replicas becomes the workload's. */
export function writeScale(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const live = getLive(env, r.route)
  const paths = crdInfo(env.store, t)?.scale
  const current = scaleOf(live, paths)
  let next: any
  if (r.method === 'PUT') next = parseBody(r)
  else {
    const ct = r.contentType.split(';')[0].trim().toLowerCase()
    const patch = parseBody(r)
    if (ct === 'application/json-patch+json') next = jsonPatch(current, patch)
    else if (ct === 'application/merge-patch+json' || ct === 'application/strategic-merge-patch+json')
      next = mergePatch(current, patch)
    else
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json'
      )
  }
  const replicas = next?.spec?.replicas
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    throw new ApiError(
      422,
      'Invalid',
      `Scale.autoscaling "${live.metadata.name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0`,
      {
        name: live.metadata.name,
        group: 'autoscaling',
        kind: 'Scale',
        causes: [{ reason: 'FieldValueInvalid', field: 'spec.replicas' }]
      }
    )
  const updated: KubeObject = structuredClone(live)
  if (paths) writeAt(updated, paths.specReplicasPath, replicas)
  else updated.spec = { ...(updated.spec ?? {}), replicas }
  updated.metadata.resourceVersion = next?.metadata?.resourceVersion || live.metadata.resourceVersion
  const managed = managedAfterUpdate(live, updated, managerOf(r), writeContext(env, t, 'scale'))
  if (managed) updated.metadata.managedFields = managed
  const written = commit(
    env,
    t,
    live,
    updated,
    r.query.getAll('dryRun').some(v => v !== '')
  )
  return { status: 200, body: scaleOf(written, paths) }
}
