// The coordination.k8s.io/v1 Lease kube-system/aks-rdma-action that serialises runs against one
// cluster: taken just before the first write (a converged re-run never takes it), renewed on a
// timer while the run works, released at the end (releaseLease is also the post step's).
// A second run waits — saying who holds it and for how long — and takes it over only once it
// is released or has expired (its holder stopped renewing).
import { KubeClient } from '../kube/client.js'
import { httpStatusOf, isConflict, isNotFound, messageOf } from '../kube/errors.js'
import type { KubeObject } from '../kube/types.js'
import { watchUntil, WatchTimeoutError } from '../kube/watch.js'
import { formatDuration } from '../util/duration.js'
import { silentLog, type Log } from '../log/index.js'

export const LEASE_NAME = 'aks-rdma-action'
export const LEASE_NAMESPACE = 'kube-system'
export const DEFAULT_LEASE_SECONDS = 60

export interface LeaseOptions {
  holder: string
  leaseDurationSeconds?: number
  /** How long to wait for another holder, in milliseconds. */
  timeoutMs: number
  /** Where waiting, taking, renewal trouble and release are told (default: nowhere). */
  log?: Log
}

export interface LeaseHandle {
  holder: string
  /** When this run took the lease (epoch ms). */
  acquiredAt: number
  /** Milliseconds spent waiting for another holder. */
  waitedMs: number
  /** False once another run took the lease over (renewal found someone else holding it). */
  held(): boolean
  release(): Promise<void>
}

export class LeaseTimeoutError extends Error {
  constructor(
    readonly holder: string,
    readonly waitedMs: number
  ) {
    super(
      `the Lease ${LEASE_NAMESPACE}/${LEASE_NAME} is held by run ${holder}; waited ${formatDuration(waitedMs)} for it ` +
        '(the timeout). Another run is changing this cluster; retry when it has finished.'
    )
    this.name = 'LeaseTimeoutError'
  }
}

/** Kubernetes MicroTime: RFC 3339 with six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

interface LeaseState {
  holder?: string
  acquiredAt?: number
  renewedAt?: number
  durationS: number
  transitions: number
}

function stateOf(lease: KubeObject | undefined): LeaseState | undefined {
  if (!lease) return undefined
  const spec = lease.spec ?? {}
  const t = (v: unknown): number | undefined => (v ? Date.parse(String(v)) : undefined)
  return {
    holder: spec.holderIdentity || undefined,
    acquiredAt: t(spec.acquireTime),
    renewedAt: t(spec.renewTime) ?? t(spec.acquireTime),
    durationS: spec.leaseDurationSeconds ?? DEFAULT_LEASE_SECONDS,
    transitions: spec.leaseTransitions ?? 0
  }
}

function expiresAt(s: LeaseState): number {
  return (s.renewedAt ?? 0) + s.durationS * 1000
}

async function readLease(client: KubeClient): Promise<KubeObject | undefined> {
  try {
    const l = await client.request(
      `get lease ${LEASE_NAME}`,
      () => client.coordination.readNamespacedLease({ name: LEASE_NAME, namespace: LEASE_NAMESPACE }),
      true
    )
    return { ...JSON.parse(JSON.stringify(l)), apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }
  } catch (e) {
    if (isNotFound(e)) return undefined
    throw e
  }
}

function leaseBody(
  holder: string,
  durationS: number,
  now: number,
  prev?: KubeObject,
  prevState?: LeaseState
): any {
  const same = prevState?.holder === holder
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: LEASE_NAME,
      namespace: LEASE_NAMESPACE,
      labels: { 'app.kubernetes.io/managed-by': 'aks-rdma-action' },
      ...(prev ? { resourceVersion: prev.metadata.resourceVersion } : {})
    },
    spec: {
      holderIdentity: holder,
      leaseDurationSeconds: durationS,
      acquireTime: same && prev?.spec?.acquireTime ? prev.spec.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: (prevState?.transitions ?? 0) + (prev && !same ? 1 : 0)
    }
  }
}

/** One attempt to take the lease; undefined when someone else holds a live one (or won a race). */
async function tryTake(
  client: KubeClient,
  holder: string,
  durationS: number
): Promise<{ taken: boolean; lease?: KubeObject }> {
  const lease = await readLease(client)
  const st = stateOf(lease)
  const now = Date.now()
  try {
    if (!lease) {
      await client.request(
        'create lease',
        () =>
          client.coordination.createNamespacedLease({
            namespace: LEASE_NAMESPACE,
            body: leaseBody(holder, durationS, now)
          }),
        true
      )
      return { taken: true }
    }
    if (!st?.holder || st.holder === holder || expiresAt(st) <= now) {
      await client.request(
        'take lease',
        () =>
          client.coordination.replaceNamespacedLease({
            name: LEASE_NAME,
            namespace: LEASE_NAMESPACE,
            body: leaseBody(holder, durationS, now, lease, st)
          }),
        true
      )
      return { taken: true }
    }
    return { taken: false, lease }
  } catch (e) {
    if (isConflict(e) || httpStatusOf(e) === 409) return { taken: false }
    throw e
  }
}

/** Takes the lease, waiting (up to opts.timeoutMs) while another run holds a live one; renews it until released. */
export async function acquireLease(client: KubeClient, opts: LeaseOptions): Promise<LeaseHandle> {
  const log = opts.log ?? silentLog
  const durationS = opts.leaseDurationSeconds ?? DEFAULT_LEASE_SECONDS
  const start = Date.now()
  const deadline = start + opts.timeoutMs
  let lastHolderLogged: string | undefined
  for (;;) {
    const attempt = await tryTake(client, opts.holder, durationS)
    if (attempt.taken) break
    const st = stateOf(attempt.lease)
    if (!st?.holder || !attempt.lease) continue // lost a race: look again
    const now = Date.now()
    if (now >= deadline) throw new LeaseTimeoutError(st.holder, now - start)
    const heldFor = st.acquiredAt ? formatDuration(now - st.acquiredAt) : 'an unknown time'
    if (lastHolderLogged !== `${st.holder}@${st.acquiredAt}`) {
      lastHolderLogged = `${st.holder}@${st.acquiredAt}`
      log.info(
        `Lease ${LEASE_NAMESPACE}/${LEASE_NAME} is held by run ${st.holder} (for ${heldFor}, renewed every ` +
          `${Math.round(durationS / 3)}s, expires ${formatDuration(Math.max(0, expiresAt(st) - now))} after its last renewal); waiting for it`
      )
    }
    // Wait for the lease to change (renewed, released, taken) or to expire; no polling.
    const seenRv = attempt.lease.metadata.resourceVersion
    try {
      await watchUntil(
        client.watchSource('coordination.k8s.io/v1', 'Lease', {
          namespace: LEASE_NAMESPACE,
          fieldSelector: `metadata.name=${LEASE_NAME}`,
          name: 'lease'
        }),
        objects => {
          const l = objects.find(o => o.metadata.name === LEASE_NAME)
          const s = stateOf(l)
          const left = s ? expiresAt(s) - Date.now() : 0
          const changed = !l || l.metadata.resourceVersion !== seenRv || !s?.holder
          return { done: changed || left <= 0, recheckInMs: Math.max(0, left) + 10 }
        },
        { timeoutMs: Math.max(0, deadline - Date.now()) }
      )
    } catch (e) {
      if (e instanceof WatchTimeoutError) throw new LeaseTimeoutError(st.holder, Date.now() - start)
      throw e
    }
  }
  const acquiredAt = Date.now()
  if (acquiredAt - start > 1000 || lastHolderLogged)
    log.info(
      `Lease ${LEASE_NAMESPACE}/${LEASE_NAME} taken by run ${opts.holder} after waiting ${formatDuration(acquiredAt - start)}`
    )
  else log.info(`Lease ${LEASE_NAMESPACE}/${LEASE_NAME} taken by run ${opts.holder}`)

  let held = true
  let released = false
  const renew = async (): Promise<void> => {
    if (released || !held) return
    try {
      const lease = await readLease(client)
      const st = stateOf(lease)
      if (!lease || st?.holder !== opts.holder) {
        held = false
        log.warning(
          `Lease ${LEASE_NAMESPACE}/${LEASE_NAME} is now held by ${st?.holder ?? 'nobody'}: another run took it over`
        )
        return
      }
      await client.request(
        'renew lease',
        () =>
          client.coordination.replaceNamespacedLease({
            name: LEASE_NAME,
            namespace: LEASE_NAMESPACE,
            body: leaseBody(opts.holder, durationS, Date.now(), lease, st)
          }),
        true
      )
    } catch (e) {
      log.warning(`renewing Lease ${LEASE_NAMESPACE}/${LEASE_NAME} failed: ${messageOf(e)}`)
    }
  }
  const timer = setInterval(() => void renew(), Math.max(1000, (durationS * 1000) / 3))
  timer.unref?.()
  return {
    holder: opts.holder,
    acquiredAt,
    waitedMs: acquiredAt - start,
    held: () => held,
    release: async () => {
      if (released) return
      released = true
      clearInterval(timer)
      await deleteIfHeld(client, opts.holder, log)
    }
  }
}

async function deleteIfHeld(client: KubeClient, holder: string, log: Log): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const lease = await readLease(client)
    if (!lease || stateOf(lease)?.holder !== holder) return false
    try {
      await client.request(
        'release lease',
        () =>
          client.coordination.deleteNamespacedLease({
            name: LEASE_NAME,
            namespace: LEASE_NAMESPACE,
            body: {
              preconditions: { uid: lease.metadata.uid, resourceVersion: lease.metadata.resourceVersion }
            }
          }),
        true
      )
      log.info(`Lease ${LEASE_NAMESPACE}/${LEASE_NAME} released by run ${holder}`)
      return true
    } catch (e) {
      if (isNotFound(e)) return false
      if (!isConflict(e)) throw e
    }
  }
  return false
}

/** The post step's release: deletes the lease only when this run (holder) still holds it. */
export async function releaseLease(
  kubeconfigPath: string,
  holder: string,
  opts: { retries?: number; log?: Log } = {}
): Promise<boolean> {
  const log = opts.log ?? silentLog
  const client = KubeClient.fromFile(kubeconfigPath, { retries: opts.retries ?? 3, log })
  return deleteIfHeld(client, holder, log)
}
