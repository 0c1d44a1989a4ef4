// The Lease kube-system/aks-rdma-action that serialises writing runs on one cluster: take, renew,
// confirm before each write, release (docs/lease.md; why: docs/decisions/0003-lease.md).
import { KubeClient } from '../kube/client.js'
import { isConflict, isNotFound, messageOf } from '../kube/errors.js'
import type { KubeObject } from '../kube/types.js'
import { watchUntil, WatchTimeoutError } from '../kube/watch.js'
import { silentLog, type Log } from '../log/index.js'
import { systemClock, type Clock } from '../util/clock.js'
import { formatDuration } from '../util/duration.js'

export const LEASE_NAME = 'aks-rdma-action'
export const LEASE_NAMESPACE = 'kube-system'
export const DEFAULT_LEASE_SECONDS = 60

export interface LeaseOptions {
  holder: string
  leaseDurationSeconds?: number
  /** How long to wait for another holder, in milliseconds. */
  timeoutMs: number
  log?: Log
  /** The clock this run judges the Lease's times by and renews on (default: the process's). */
  clock?: Clock
}

export interface LeaseHandle {
  holder: string
  /** When this run took the lease (epoch ms). */
  acquiredAt: number
  /** Milliseconds spent waiting for another holder. */
  waitedMs: number
  /**
   * This run's belief that it holds the Lease: false once another holder was seen, the Lease was
   * found gone, no renewal succeeded within the renew deadline, or it was released.
   */
  held(): boolean
  /**
   * Before a write or a helm call (`what` names it): reads the Lease and resolves when this run
   * still holds it; otherwise throws LeaseLostError (and held() is false from then on).
   */
  confirm(what: string): Promise<void>
  /** Resolves with the LeaseLostError once the renewals find the Lease lost (never rejects). */
  whenLost(): Promise<LeaseLostError>
  release(): Promise<void>
}

/** The run no longer holds the Lease: it must stop writing. */
export class LeaseLostError extends Error {
  constructor(
    readonly holder: string,
    /** Why: who holds it now, or that it could not be renewed in time. */
    readonly why: string,
    /** What the run was about to do (a write, a helm call), when confirm() found it. */
    readonly what?: string
  ) {
    super(
      `the Lease ${LEASE_NAMESPACE}/${LEASE_NAME} is no longer held by this run (${holder}): ${why}. ` +
        `${what ? `Stopped before ${what}, ` : 'Stopped, '}so as not to write over the run that holds it now; re-run once it has finished.`
    )
    this.name = 'LeaseLostError'
  }
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

/**
 * What this run has seen of another holder's Lease: its record (holder, renewal, version) and when
 * (by this run's clock) it first saw that record. The holder is live while its record keeps
 * changing; it has expired once the same record has been seen for a whole lease duration.
 */
class Observed {
  private key?: string
  private at = 0

  constructor(private readonly clock: Clock) {}

  /** Notes the Lease as read now; returns the local time until which its holder counts as live. */
  see(lease: KubeObject | undefined, st: LeaseState | undefined): number {
    const key = lease
      ? `${st?.holder ?? ''}|${lease.spec?.renewTime ?? ''}|${lease.metadata.resourceVersion ?? ''}`
      : ''
    if (key !== this.key) {
      this.key = key
      this.at = this.clock.now()
    }
    return this.at + (st?.durationS ?? DEFAULT_LEASE_SECONDS) * 1000
  }
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

/** One attempt to take the lease; not taken when someone else holds a live one (or won a race). */
async function tryTake(
  client: KubeClient,
  holder: string,
  durationS: number,
  observed: Observed,
  clock: Clock
): Promise<{ taken: boolean; lease?: KubeObject; liveUntil?: number }> {
  const lease = await readLease(client)
  const st = stateOf(lease)
  const liveUntil = observed.see(lease, st)
  const now = clock.now()
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
    // Expired: this run has seen the same record for a whole lease duration (its own clock).
    if (!st?.holder || st.holder === holder || liveUntil <= now) {
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
    return { taken: false, lease, liveUntil }
  } catch (e) {
    if (isConflict(e)) return { taken: false }
    throw e
  }
}

/** Takes the lease, waiting (up to opts.timeoutMs) while another run holds a live one; renews it until released. */
export async function acquireLease(client: KubeClient, opts: LeaseOptions): Promise<LeaseHandle> {
  const log = opts.log ?? silentLog
  const durationS = opts.leaseDurationSeconds ?? DEFAULT_LEASE_SECONDS
  const clock = opts.clock ?? systemClock
  const start = clock.now()
  const waited = await waitAndTake(client, opts.holder, durationS, start, start + opts.timeoutMs, clock, log)
  const acquiredAt = clock.now()
  if (acquiredAt - start > 1000 || waited)
    log.info(
      `Lease ${LEASE_NAMESPACE}/${LEASE_NAME} taken by run ${opts.holder} after waiting ${formatDuration(acquiredAt - start)}`
    )
  else log.info(`Lease ${LEASE_NAMESPACE}/${LEASE_NAME} taken by run ${opts.holder}`)
  return new HeldLease(client, opts.holder, durationS, clock, log, start, acquiredAt)
}

/**
 * Tries to take the lease until it is taken, waiting between attempts for another holder's lease
 * to change or expire; throws LeaseTimeoutError at the deadline. True when it had to wait.
 */
async function waitAndTake(
  client: KubeClient,
  holder: string,
  durationS: number,
  start: number,
  deadline: number,
  clock: Clock,
  log: Log
): Promise<boolean> {
  const observed = new Observed(clock)
  let lastHolderLogged: string | undefined
  for (;;) {
    const attempt = await tryTake(client, holder, durationS, observed, clock)
    if (attempt.taken) return lastHolderLogged !== undefined
    const st = stateOf(attempt.lease)
    if (!st?.holder || !attempt.lease) continue // lost a race: look again
    const now = clock.now()
    if (now >= deadline) throw new LeaseTimeoutError(st.holder, now - start)
    if (lastHolderLogged !== `${st.holder}@${st.acquiredAt}`) {
      lastHolderLogged = `${st.holder}@${st.acquiredAt}`
      // How long it has held it, as its own runner's clock stamped it (information only).
      const heldFor = st.acquiredAt ? formatDuration(Math.max(0, now - st.acquiredAt)) : 'an unknown time'
      log.info(
        `Lease ${LEASE_NAMESPACE}/${LEASE_NAME} is held by run ${st.holder} (for ${heldFor} by its runner's clock); ` +
          `waiting for it: taken over only if this run sees it go unrenewed for ${st.durationS}s`
      )
    }
    try {
      await waitForChange(client, attempt.lease, attempt.liveUntil ?? now, deadline, clock)
    } catch (e) {
      if (e instanceof WatchTimeoutError) throw new LeaseTimeoutError(st.holder, clock.now() - start)
      throw e
    }
  }
}

/**
 * Waits for the lease to change (renewed, released, taken) or for its record to stay the same
 * a whole lease duration by this run's clock (until liveUntil); no polling.
 */
async function waitForChange(
  client: KubeClient,
  seen: KubeObject,
  liveUntil: number,
  deadline: number,
  clock: Clock
): Promise<void> {
  const seenRv = seen.metadata.resourceVersion
  await watchUntil(
    client.watchSource('coordination.k8s.io/v1', 'Lease', {
      namespace: LEASE_NAMESPACE,
      fieldSelector: `metadata.name=${LEASE_NAME}`,
      name: 'lease'
    }),
    objects => {
      const l = objects.find(o => o.metadata.name === LEASE_NAME)
      const left = liveUntil - clock.now()
      const changed = !l || l.metadata.resourceVersion !== seenRv || !stateOf(l)?.holder
      return { done: changed || left <= 0, recheckInMs: Math.max(0, left) + 10 }
    },
    { timeoutMs: Math.max(0, deadline - clock.now()) }
  )
}

/** The lease this run holds: renews it on a timer and judges whether it still holds it. */
class HeldLease implements LeaseHandle {
  readonly waitedMs: number
  private readonly renewEveryMs: number
  /**
   * As client-go's renew deadline: without a successful renewal for this long, this run can no
   * longer be sure that no other run has (rightly) taken the Lease over.
   */
  private readonly renewDeadlineMs: number
  private lastRenewed: number
  private lost: LeaseLostError | undefined
  private released = false
  private onLost: (e: LeaseLostError) => void = () => undefined
  private readonly lostPromise = new Promise<LeaseLostError>(resolve => (this.onLost = resolve))
  private readonly stopRenewing: () => void

  constructor(
    private readonly client: KubeClient,
    readonly holder: string,
    private readonly durationS: number,
    private readonly clock: Clock,
    private readonly log: Log,
    start: number,
    readonly acquiredAt: number
  ) {
    this.waitedMs = acquiredAt - start
    this.lastRenewed = acquiredAt
    this.renewEveryMs = Math.max(200, (durationS * 1000) / 3)
    this.renewDeadlineMs = (durationS * 1000 * 2) / 3
    this.stopRenewing = clock.every(this.renewEveryMs, () => this.renew())
  }

  held(): boolean {
    return !this.lost && !this.released && !this.overdue()
  }

  async confirm(what: string): Promise<void> {
    if (this.released) throw new LeaseLostError(this.holder, 'this run released it', what)
    if (this.lost) throw this.lose(this.lost.why, what)
    if (this.overdue())
      throw this.lose(`no renewal succeeded for ${formatDuration(this.clock.now() - this.lastRenewed)}`, what)
    let lease: KubeObject | undefined
    try {
      lease = await readLease(this.client)
    } catch (e) {
      // Unreadable: still ours while the renewals are on time (they would have seen a takeover).
      if (this.overdue()) throw this.lose(`it cannot be read (${messageOf(e)})`, what)
      return
    }
    this.check(lease, what)
  }

  whenLost(): Promise<LeaseLostError> {
    return this.lostPromise
  }

  async release(): Promise<void> {
    if (this.released) return
    this.released = true
    this.stopRenewing()
    if (!this.lost) await deleteIfHeld(this.client, this.holder, this.log)
  }

  /** Records the loss (the first time: warns, stops renewing); the error for `what`. */
  private lose(why: string, what?: string): LeaseLostError {
    if (!this.lost) {
      this.lost = new LeaseLostError(this.holder, why)
      this.stopRenewing()
      this.log.warning(this.lost.message)
      this.onLost(this.lost)
    }
    return new LeaseLostError(this.holder, this.lost.why, what)
  }

  private overdue(): boolean {
    return this.clock.now() - this.lastRenewed > this.renewDeadlineMs
  }

  private check(lease: KubeObject | undefined, what?: string): void {
    const st = stateOf(lease)
    if (!lease) throw this.lose('the Lease was deleted', what)
    if (st?.holder !== this.holder) throw this.lose(`it is now held by ${st?.holder ?? 'nobody'}`, what)
  }

  private async renew(): Promise<void> {
    if (this.released || this.lost) return
    const { client, clock } = this
    try {
      const lease = await readLease(client)
      this.check(lease)
      const st = stateOf(lease)
      await client.request(
        'renew lease',
        () =>
          client.coordination.replaceNamespacedLease({
            name: LEASE_NAME,
            namespace: LEASE_NAMESPACE,
            body: leaseBody(this.holder, this.durationS, clock.now(), lease, st)
          }),
        true
      )
      this.lastRenewed = clock.now()
    } catch (e) {
      if (e instanceof LeaseLostError) return
      if (this.overdue())
        this.lose(
          `no renewal succeeded for ${formatDuration(clock.now() - this.lastRenewed)} (last error: ${messageOf(e)})`
        )
      else this.log.warning(`renewing Lease ${LEASE_NAMESPACE}/${LEASE_NAME} failed: ${messageOf(e)}`)
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
