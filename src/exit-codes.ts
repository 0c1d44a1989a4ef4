// The process exit codes, in a module of their own so the command line tool's entry can name them
// without loading the action.

/**
 * Exit codes of the CLI (the action itself exits 0 or 1, and 2 for bad inputs). A run cancelled by
 * a signal exits 128 + the signal's number, as a shell reports it: 130 for SIGINT (Ctrl-C, the
 * runner's first signal on a cancelled job), 143 for SIGTERM — after stopping at its next safe
 * point, or at once on a second signal (docs/lease.md "Cancellation").
 */
export const EXIT = { success: 0, failure: 1, usage: 2, drift: 3, interrupted: 130, terminated: 143 } as const

/** The exit code of a run cancelled by `signal`. */
export function cancelledExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted
}
