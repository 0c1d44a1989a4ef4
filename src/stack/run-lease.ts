// The Lease as one run of the executor holds it: taken on the first write (a run with nothing to
// change never takes it), confirmed before every write, released at the end, and remembered as
// lost when the renewals find another holder. Apply and uninstall share it.
import type { KubeClient } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import type { Log } from '../log/index.js'
import { throwIfCancelled } from '../util/cancel.js'
import type { Clock } from '../util/clock.js'
import { acquireLease, type LeaseHandle, type LeaseLostError } from './lease.js'

export class RunLease {
  private lease?: LeaseHandle
  /** Set once the Lease this run took was found lost (another holder, deleted, renewals failing). */
  lost?: LeaseLostError
  /** True once this run took the Lease and gave it back itself. */
  released = false

  constructor(
    private readonly client: KubeClient,
    private readonly o: {
      holder: string
      leaseDurationSeconds?: number
      /** The run's absolute deadline (epoch ms): how long it may wait for another holder. */
      deadline: number
      log: Log
      /** The clock the Lease is judged and renewed by (default: the process's). */
      clock?: Clock
    }
  ) {}

  /** Takes the Lease when this run does not hold it yet; true when this call took it (and so maybe waited). */
  async ensure(): Promise<boolean> {
    if (this.lease) return false
    throwIfCancelled('before taking the Lease')
    this.lease = await acquireLease(this.client, {
      holder: this.o.holder,
      leaseDurationSeconds: this.o.leaseDurationSeconds,
      timeoutMs: Math.max(0, this.o.deadline - Date.now()),
      log: this.o.log,
      ...(this.o.clock ? { clock: this.o.clock } : {})
    })
    void this.lease.whenLost().then(e => (this.lost = e))
    return true
  }

  /**
   * Before a write (`what` names it): throws LeaseLostError once another run holds the Lease, and
   * RunCancelledError once the run is cancelled (the safe point where a cancelled run stops).
   */
  async confirm(what: string): Promise<void> {
    throwIfCancelled(`before ${what}`)
    await this.lease?.confirm(what)
  }

  async release(): Promise<void> {
    try {
      const held = this.lease?.held() === true
      await this.lease?.release()
      this.released ||= held
    } catch (e) {
      this.o.log.warning(`releasing the Lease failed: ${messageOf(e)} (it expires on its own)`)
    }
  }
}
