// DELETE and what goes with it: DeleteOptions from the body and the query (gracePeriodSeconds,
// propagationPolicy, orphanDependents, preconditions, dryRun), one object or a collection, the
// answer kube-apiserver gives (kubernetes/kubernetes@v1.33 staging/src/k8s.io/apiserver/pkg/
// endpoints/handlers/delete.go): the object while it is still there (graceful deletion, finalizers,
// a Namespace terminating), else the deleted object for pods, namespaces and custom resources and
// a Success Status for the rest; 202 instead of 200 when a delete asked for cascading with
// orphanDependents=false and the object is not gone yet. Also the namespace `finalize`
// subresource the namespace controller uses (pod eviction: eviction.ts). Dependents are
// the garbage collector's (controllers/gc.ts), a namespace's content the namespace controller's.
import type { DeleteOptions, KubeObject, ResourceType } from '../store.js'
import { apiVersionOf } from '../store.js'
import { admitDelete } from '../admission.js'
import { crdInfo } from './crds.js'
import {
  type Reply,
  type VerbEnv,
  type VerbRequest,
  checkSelectors,
  details,
  getLive,
  isDryRun,
  parseBody
} from './handlers.js'
import { parseBool } from './parse-bool.js'
import { decodeObject, isProtobufBody } from './protobuf.js'
import { ApiError, statusSuccess } from './status.js'

const POLICIES = new Set(['Orphan', 'Background', 'Foreground'])

function bodyOptions(r: VerbRequest): any {
  if (r.body.length && isProtobufBody(r.body)) {
    try {
      return decodeObject(r.body)
    } catch (err) {
      throw new ApiError(
        400,
        'BadRequest',
        `the DeleteOptions body could not be decoded: ${(err as Error).message}`
      )
    }
  }
  const text = r.body.toString('utf8').trim()
  if (!text) return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, 'BadRequest', 'the DeleteOptions body could not be decoded')
  }
}

/** DeleteOptions of a request: the body's, the query's parameters over them. */
export function deleteOptions(r: VerbRequest): DeleteOptions {
  const b = bodyOptions(r) ?? {}
  const q = r.query
  const grace = q.get('gracePeriodSeconds') ?? b.gracePeriodSeconds
  const policy = q.get('propagationPolicy') ?? b.propagationPolicy
  const orphan = q.has('orphanDependents') ? parseBool(q, 'orphanDependents') : b.orphanDependents
  if (policy !== undefined && policy !== null && !POLICIES.has(policy))
    throw new ApiError(
      422,
      'Invalid',
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`
    )
  if (orphan !== undefined && orphan !== null && policy)
    throw new ApiError(
      422,
      'Invalid',
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "' +
        policy +
        '": orphanDependents and deletionPropagation cannot be both set'
    )
  const o: DeleteOptions = {}
  if (grace !== undefined && grace !== null && grace !== '') o.gracePeriodSeconds = Number(grace)
  if (policy) o.propagationPolicy = policy
  if (orphan !== undefined && orphan !== null) o.orphanDependents = orphan === true
  if (b.preconditions) o.preconditions = b.preconditions
  if (isDryRun(q) || (b.dryRun ?? []).length) o.dryRun = true
  return o
}

/** Whether the kind answers a delete with the deleted object (ReturnDeletedObject). */
function returnsObject(env: VerbEnv, t: ResourceType): boolean {
  return t.plural === 'pods' || t.plural === 'namespaces' || !!crdInfo(env.store, t)
}

export function deleteObject(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const live = getLive(env, r.route)
  admitDelete(t, live.metadata.name)
  const opts = deleteOptions(r)
  const { object, removed } = env.store.delete(t, live.metadata.namespace, live.metadata.name, opts)
  if (!removed) return { status: opts.orphanDependents === false ? 202 : 200, body: object }
  if (returnsObject(env, t)) return { status: 200, body: object }
  return { status: 200, body: statusSuccess({ ...details(t, live.metadata.name), uid: live.metadata.uid }) }
}

export function deleteCollection(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const opts = deleteOptions(r)
  const fieldSelector = r.query.get('fieldSelector') ?? undefined
  checkSelectors(env, t, fieldSelector)
  const items = env.store.list(t, {
    namespace: r.route.namespace,
    labelSelector: r.query.get('labelSelector') ?? undefined,
    fieldSelector
  }).items
  const gone: KubeObject[] = []
  for (const o of items) {
    try {
      gone.push(env.store.delete(t, o.metadata.namespace, o.metadata.name, opts).object)
    } catch {
      // Gone meanwhile (another deleter won): deletecollection skips it.
    }
  }
  return {
    status: 200,
    body: {
      kind: `${t.kind}List`,
      apiVersion: apiVersionOf(t),
      metadata: { resourceVersion: env.store.currentResourceVersion },
      items: gone
    }
  }
}

/** PUT namespaces/<name>/finalize: only spec.finalizers changes (the namespace goes once empty). */
export function finalizeNamespace(env: VerbEnv, r: VerbRequest): Reply {
  const body = parseBody(r)
  const live = getLive(env, r.route)
  const finalizers: unknown = body?.spec?.finalizers ?? []
  if (!Array.isArray(finalizers)) throw new ApiError(400, 'BadRequest', 'spec.finalizers must be a list')
  const next = structuredClone(live)
  next.spec = { ...(next.spec ?? {}), finalizers }
  if (body?.metadata?.resourceVersion) next.metadata.resourceVersion = body.metadata.resourceVersion
  else delete next.metadata.resourceVersion
  const out = env.store.update(r.route.type, next, { dryRun: isDryRun(r.query) })
  return { status: 200, body: out }
}
