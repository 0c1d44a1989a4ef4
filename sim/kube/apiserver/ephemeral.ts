// The pods/ephemeralcontainers subresource (`kubectl debug` patches it): GET answers the pod; PUT and
// PATCH change nothing but spec.ephemeralContainers, defaulted and checked by
// ValidatePodEphemeralContainersUpdate (../pod-update.ts) — kubernetes/kubernetes@v1.33.2
// pkg/registry/core/pod/storage/storage.go (EphemeralContainersREST), pkg/registry/core/pod/
// strategy.go (podEphemeralContainersStrategy).
import { defaultObject } from '../defaults-served.js'
import { validateEphemeralUpdate } from '../pod-update.js'
import type { KubeObject } from '../store.js'
import { isPlainObject } from './fieldpaths.js'
import {
  type Reply,
  type VerbEnv,
  type VerbRequest,
  getLive,
  isDryRun,
  parseBody,
  patched
} from './handlers.js'
import { ApiError } from './status.js'

export function ephemeralContainers(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const live = getLive(env, r.route)
  if (r.method === 'GET') return { status: 200, body: live }
  const ct = r.contentType.split(';')[0].trim().toLowerCase()
  if (r.method === 'PATCH' && ct === 'application/apply-patch+yaml')
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      'apply patches are not supported on the ephemeralcontainers subresource'
    )
  const written = r.method === 'PUT' ? parseBody(r) : patched(env, r, live)
  if (!isPlainObject(written))
    throw new ApiError(400, 'BadRequest', 'the body of the request must be an object')
  const w = written as KubeObject
  if (w.metadata?.name && w.metadata.name !== live.metadata.name)
    throw new ApiError(
      400,
      'BadRequest',
      `the name of the object (${w.metadata.name}) does not match the name on the URL (${live.metadata.name})`
    )
  const next = structuredClone(live)
  next.spec = { ...next.spec, ephemeralContainers: structuredClone(w.spec?.ephemeralContainers) }
  if (next.spec.ephemeralContainers === undefined) delete next.spec.ephemeralContainers
  defaultObject(t, next)
  validateEphemeralUpdate(t, live, next)
  const rv = r.method === 'PUT' ? w.metadata?.resourceVersion : undefined
  const out = env.store.update(
    t,
    { ...next, metadata: { ...next.metadata, resourceVersion: rv ?? live.metadata.resourceVersion } },
    { subresource: 'ephemeralcontainers', dryRun: isDryRun(r.query) }
  )
  return { status: 200, body: out }
}
