// The process exit codes, in a module of their own so the command line tool's entry can name them
// without loading the action.

/** Exit codes of the CLI (the action itself exits 0 or 1, and 2 for bad inputs). */
export const EXIT = { success: 0, failure: 1, usage: 2, drift: 3 } as const
