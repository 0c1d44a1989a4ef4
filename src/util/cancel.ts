// A run's cancellation: waits listen to cancelSignal(), steps and writes check throwIfCancelled().
// One cancellation per process (a run is a process). Rules: docs/lease.md#cancellation.

/** The run was cancelled by a signal: thrown at the safe point where it stopped. */
export class RunCancelledError extends Error {
  constructor(
    readonly signal: NodeJS.Signals,
    /** Where it stopped: `before writing Deployment x/y`, `while waiting`, ... */
    readonly where: string
  ) {
    super(`cancelled by ${signal}: stopped ${where}`)
    this.name = 'RunCancelledError'
  }
}

let controller = new AbortController()
let received: NodeJS.Signals | undefined

/** Aborted once the run is cancelled; its reason is a RunCancelledError. */
export function cancelSignal(): AbortSignal {
  return controller.signal
}

/** The signal that cancelled the run, if any. */
export function cancelledBy(): NodeJS.Signals | undefined {
  return received
}

/** Cancels the run (the first signal; later calls change nothing). */
export function cancelRun(signal: NodeJS.Signals): void {
  if (received) return
  received = signal
  controller.abort(new RunCancelledError(signal, 'while waiting'))
}

/** At a safe point: throws RunCancelledError when the run was cancelled (`where`: before what). */
export function throwIfCancelled(where: string): void {
  if (received) throw new RunCancelledError(received, where)
}

/** The error to end a wait with once cancelled (the wait names itself). */
export function cancelledWhile(what: string): RunCancelledError {
  return new RunCancelledError(received ?? 'SIGINT', `while ${what}`)
}

/** For tests of one process running several runs: forgets a cancellation. */
export function resetCancellation(): void {
  received = undefined
  controller = new AbortController()
}
