// How the helm stand-in changes the cluster: CRDs from crds/ (created when absent, then waited on
// until served), the ownership check helm runs before adopting existing objects, create / three-way
// update / delete of the rendered objects (unchanged objects are not written), and `--wait`'s
// readiness polling of Deployments and DaemonSets.
import { KubeApiError, kindInfo, type KubeObj, type KubeRest } from './kube-rest.js'
import { isMap, type Values } from './values.js'

export const ANNOTATION_RELEASE_NAME = 'meta.helm.sh/release-name'
export const ANNOTATION_RELEASE_NAMESPACE = 'meta.helm.sh/release-namespace'
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by'

export const sleep = (ms: number): Promise<void> => new Promise(r => setTimeout(r, ms))

/** Identity of an object across manifests. */
export const objKey = (o: KubeObj): string =>
  `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`

/** Describes an object as helm's errors do: `Deployment "x" in namespace "y"`. */
const describe = (o: KubeObj): string =>
  `${o.kind} "${o.metadata.name}" in namespace "${o.metadata.namespace ?? ''}"`

export interface ApplyContext {
  kube: KubeRest
  release: string
  namespace: string
  /** Real milliseconds between readiness polls. */
  pollMs: number
  debug: (line: string) => void
}

/** Sets the release namespace on namespaced objects and helm's ownership metadata on all. */
export function withOwnership(ctx: ApplyContext, obj: KubeObj): KubeObj {
  const o = structuredClone(obj)
  if (kindInfo(o.apiVersion, o.kind).namespaced && !o.metadata.namespace) o.metadata.namespace = ctx.namespace
  o.metadata.labels = { ...(o.metadata.labels ?? {}), [LABEL_MANAGED_BY]: 'Helm' }
  o.metadata.annotations = {
    ...(o.metadata.annotations ?? {}),
    [ANNOTATION_RELEASE_NAME]: ctx.release,
    [ANNOTATION_RELEASE_NAMESPACE]: ctx.namespace
  }
  return o
}

/** Creates the chart's CRDs that are absent (helm never updates CRDs) and waits until each is served. */
export async function installCrds(ctx: ApplyContext, crds: KubeObj[], timeoutMs = 60_000): Promise<void> {
  const info = kindInfo('apiextensions.k8s.io/v1', 'CustomResourceDefinition')
  const created: KubeObj[] = []
  for (const crd of crds) {
    if (await ctx.kube.tryGet(info, undefined, crd.metadata.name)) {
      ctx.debug(`CRD ${crd.metadata.name} is already present. Skipping.`)
      continue
    }
    try {
      await ctx.kube.create(crd)
      created.push(crd)
    } catch (e) {
      if (!(e instanceof KubeApiError && e.code === 409))
        throw new Error(`failed to install CRD ${crd.metadata.name}: ${(e as Error).message}`)
    }
  }
  const deadline = Date.now() + timeoutMs
  for (const crd of created) {
    const spec = crd.spec as Values
    const version = spec.versions[0].name
    const path = `/apis/${spec.group}/${version}/${spec.names.plural}?limit=1`
    for (;;) {
      const live = await ctx.kube.tryGet(info, undefined, crd.metadata.name)
      const established = (live?.status?.conditions ?? []).some(
        (c: Values) => c.type === 'Established' && c.status === 'True'
      )
      let served = established
      if (!served) {
        served = await ctx.kube.request('GET', path).then(
          () => true,
          () => false
        )
      }
      if (served) break
      if (Date.now() > deadline) throw new Error('context deadline exceeded')
      await sleep(ctx.pollMs)
    }
  }
}

/** helm's existing-resource check: an object may be adopted only if it carries this release's ownership. */
export function ownershipProblem(ctx: ApplyContext, live: KubeObj): string | undefined {
  const errs: string[] = []
  const labels = live.metadata.labels ?? {}
  const ann = live.metadata.annotations ?? {}
  if (labels[LABEL_MANAGED_BY] === undefined) {
    errs.push(`label validation error: missing key "${LABEL_MANAGED_BY}": must be set to "Helm"`)
  } else if (labels[LABEL_MANAGED_BY] !== 'Helm') {
    errs.push(
      `label validation error: key "${LABEL_MANAGED_BY}" must equal "Helm": current value is "${labels[LABEL_MANAGED_BY]}"`
    )
  }
  for (const [key, want] of [
    [ANNOTATION_RELEASE_NAME, ctx.release],
    [ANNOTATION_RELEASE_NAMESPACE, ctx.namespace]
  ]) {
    if (ann[key] === undefined)
      errs.push(`annotation validation error: missing key "${key}": must be set to "${want}"`)
    else if (ann[key] !== want)
      errs.push(
        `annotation validation error: key "${key}" must equal "${want}": current value is "${ann[key]}"`
      )
  }
  return errs.length ? errs.join('; ') : undefined
}

/** Fails when a rendered object that the previous release did not own exists without this release's ownership. */
export async function checkConflicts(
  ctx: ApplyContext,
  objs: KubeObj[],
  previouslyOwned: Set<string>,
  verb: 'install' | 'update'
): Promise<void> {
  for (const o of objs) {
    if (previouslyOwned.has(objKey(o))) continue
    const live = await ctx.kube.tryGet(kindInfo(o.apiVersion, o.kind), o.metadata.namespace, o.metadata.name)
    if (!live) continue
    const problem = ownershipProblem(ctx, live)
    if (problem) {
      throw new Error(
        `rendered manifests contain a resource that already exists. Unable to continue with ${verb}: ${describe(o)} exists and cannot be imported into the current release: invalid ownership metadata; ${problem}`
      )
    }
  }
}

/** Whether `live` holds everything `target` says (maps: a superset; lists: item by item). */
function covers(live: unknown, target: unknown): boolean {
  if (isMap(target)) return isMap(live) && Object.entries(target).every(([k, v]) => covers(live[k], v))
  if (Array.isArray(target))
    return Array.isArray(live) && live.length === target.length && target.every((v, i) => covers(live[i], v))
  return live === target
}

/**
 * Three-way merge of one level: fields from target win, fields dropped since the old manifest are
 * removed. A list the live object already holds as rendered (the server only added its defaults
 * to the items) is left as it is, as helm's strategic three-way patch leaves it.
 */
export function merge3(old: unknown, target: unknown, live: unknown): unknown {
  if (Array.isArray(target) && covers(live, target)) return structuredClone(live)
  if (!isMap(target) || !isMap(live)) return structuredClone(target)
  const out: Values = structuredClone(live)
  for (const [k, v] of Object.entries(target)) {
    out[k] =
      (isMap(v) && isMap(live[k])) || Array.isArray(v)
        ? merge3(isMap(old) ? old[k] : undefined, v, live[k])
        : structuredClone(v)
  }
  if (isMap(old)) for (const k of Object.keys(old)) if (!(k in target)) delete out[k]
  return out
}

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    isMap(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x
  )

/**
 * Creates or updates `target` (rendered, with ownership); `old` is the object in the previous
 * manifest. helm sends the three-way merge as a PATCH (helm v3.19 pkg/kube/client.go
 * updateResource), which the server applies to the latest object: a controller's write in between
 * (a status update) never makes it fail. The stand-in merges and replaces, so it merges again on
 * such a conflict.
 */
export async function applyObject(
  ctx: ApplyContext,
  target: KubeObj,
  old: KubeObj | undefined
): Promise<'created' | 'updated' | 'unchanged'> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyOnce(ctx, target, old)
    } catch (e) {
      if (!(e instanceof KubeApiError && e.code === 409 && attempt < 5)) throw e
    }
  }
}

async function applyOnce(
  ctx: ApplyContext,
  target: KubeObj,
  old: KubeObj | undefined
): Promise<'created' | 'updated' | 'unchanged'> {
  const info = kindInfo(target.apiVersion, target.kind)
  const live = await ctx.kube.tryGet(info, target.metadata.namespace, target.metadata.name)
  if (!live) {
    await ctx.kube.create(target)
    return 'created'
  }
  const merged = merge3(old, target, live) as KubeObj
  merged.metadata = merge3(old?.metadata, target.metadata, live.metadata) as KubeObj['metadata']
  merged.metadata.resourceVersion = live.metadata.resourceVersion
  if (live.status !== undefined) merged.status = live.status
  if (canonical(merged) === canonical(live)) {
    ctx.debug(`Looks like there are no changes for ${target.kind} "${target.metadata.name}"`)
    return 'unchanged'
  }
  await ctx.kube.replace(merged)
  return 'updated'
}

/** Applies a release's objects in order and deletes the previous release's objects it no longer renders. */
export async function applyRelease(
  ctx: ApplyContext,
  targets: KubeObj[],
  previous: KubeObj[]
): Promise<void> {
  const prevByKey = new Map(previous.map(o => [objKey(o), o]))
  for (const t of targets) await applyObject(ctx, t, prevByKey.get(objKey(t)))
  const keep = new Set(targets.map(objKey))
  for (const p of [...previous].reverse()) {
    if (keep.has(objKey(p))) continue
    await deleteObject(ctx, p)
  }
}

export async function deleteObject(ctx: ApplyContext, o: KubeObj): Promise<void> {
  try {
    await ctx.kube.delete(kindInfo(o.apiVersion, o.kind), o.metadata.namespace, o.metadata.name)
  } catch (e) {
    if (!(e instanceof KubeApiError && e.code === 404)) throw e
  }
}

/** `maxUnavailable` (int or percentage) scaled against a total, rounded down as helm's readiness check does. */
function scaled(value: unknown, total: number, fallback: number): number {
  if (value === undefined || value === null) return fallback
  const s = String(value)
  if (s.endsWith('%')) return Math.floor((Number(s.slice(0, -1)) / 100) * total)
  return Number(s) || 0
}

/** helm's readiness rule for one object (Deployments and DaemonSets; other kinds are ready at once). */
export function isReady(o: KubeObj): boolean {
  const st: Values = o.status ?? {}
  if (o.kind === 'Deployment') {
    if (o.spec?.paused) return true
    const replicas = o.spec?.replicas ?? 1
    if (
      st.observedGeneration !== undefined &&
      o.metadata.generation !== undefined &&
      st.observedGeneration < o.metadata.generation
    ) {
      return false
    }
    const expected =
      replicas - scaled(o.spec?.strategy?.rollingUpdate?.maxUnavailable, replicas, Math.floor(replicas / 4))
    if (st.updatedReplicas !== undefined && st.updatedReplicas < replicas) return false
    return (st.availableReplicas ?? 0) >= expected
  }
  if (o.kind === 'DaemonSet') {
    if (o.spec?.updateStrategy?.type && o.spec.updateStrategy.type !== 'RollingUpdate') return true
    const desired = st.desiredNumberScheduled ?? 0
    if ((st.updatedNumberScheduled ?? 0) !== desired) return false
    const expected = desired - scaled(o.spec?.updateStrategy?.rollingUpdate?.maxUnavailable, desired, 1)
    return (st.numberReady ?? 0) >= expected
  }
  return true
}

/** `--wait`: polls the workloads until all are ready; throws helm's `context deadline exceeded` at the deadline. */
export async function waitReady(ctx: ApplyContext, objs: KubeObj[], timeoutMs: number): Promise<void> {
  const workloads = objs.filter(o => o.kind === 'Deployment' || o.kind === 'DaemonSet')
  ctx.debug(`beginning wait for ${objs.length} resources with timeout of ${Math.round(timeoutMs / 1000)}s`)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let pending: KubeObj | undefined
    for (const w of workloads) {
      const live = await ctx.kube.tryGet(
        kindInfo(w.apiVersion, w.kind),
        w.metadata.namespace,
        w.metadata.name
      )
      if (!live || !isReady(live)) {
        pending = w
        break
      }
    }
    if (!pending) return
    ctx.debug(`${pending.kind} is not ready: ${pending.metadata.namespace}/${pending.metadata.name}`)
    if (Date.now() + ctx.pollMs > deadline) throw new Error('context deadline exceeded')
    await sleep(ctx.pollMs)
  }
}

/** `uninstall --wait`: polls until the objects are gone. */
export async function waitDeleted(ctx: ApplyContext, objs: KubeObj[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let remaining = false
    for (const o of objs) {
      if (await ctx.kube.tryGet(kindInfo(o.apiVersion, o.kind), o.metadata.namespace, o.metadata.name)) {
        remaining = true
        break
      }
    }
    if (!remaining) return
    if (Date.now() + ctx.pollMs > deadline) throw new Error('context deadline exceeded')
    await sleep(ctx.pollMs)
  }
}
