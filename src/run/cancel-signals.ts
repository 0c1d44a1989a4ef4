// Turns SIGINT and SIGTERM into the run's cancellation (src/util/cancel.ts): stop at the next safe
// point, exit 130 or 143; a second signal exits at once. Rules: docs/lease.md#cancellation.
import { cancelledExitCode } from '../exit-codes.js'
import { log } from '../log/index.js'
import { cancelRun, cancelledBy } from '../util/cancel.js'

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']

/** What the handlers listen on and how they end the process (the process's own by default). */
export interface SignalTarget {
  on(signal: NodeJS.Signals, handler: (signal: NodeJS.Signals) => void): unknown
  off(signal: NodeJS.Signals, handler: (signal: NodeJS.Signals) => void): unknown
}

/** Installs the handlers (once per process); returns their removal. */
export function handleCancelSignals(
  exit: (code: number) => void = code => process.exit(code),
  target: SignalTarget = process
): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    if (cancelledBy()) {
      // Synchronously: the process ends now, whatever is in flight.
      process.stderr.write(
        `aks-rdma-action: ${signal} again: exiting at once; the Lease, if held, expires by itself (the post step releases it on a runner)\n`
      )
      exit(cancelledExitCode(signal))
      return
    }
    cancelRun(signal)
    log.warning(
      `aks-rdma-action: ${signal} received: stopping at the next safe point (no write is cut off), then releasing the Lease; send it again to exit at once`
    )
  }
  for (const s of SIGNALS) target.on(s, onSignal)
  return () => {
    for (const s of SIGNALS) target.off(s, onSignal)
  }
}
