// The process exit codes (docs/running-locally.md "Exit codes"), in a module of their own so the CLI's
// entry can name them without loading the action.

/**
 * The CLI exits with any of these; the action's main step maps `usage` to 1 (GitHub wants 0 or 1
 * from an action) and keeps 130/143, 128 + the signal's number as a shell reports it.
 */
export const EXIT = { success: 0, failure: 1, usage: 2, drift: 3, interrupted: 130, terminated: 143 } as const

/** The exit code of a run cancelled by `signal`. */
export function cancelledExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted
}
