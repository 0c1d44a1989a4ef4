// The Log interface every module writes through (the process-wide seam and its backends are
// index.ts, the terminal backend terminal.ts).

export interface Annotation {
  /** Title of the annotation (one line). */
  title?: string
}

export interface Log {
  info(line: string): void
  /** Shown only when debugging (ACTIONS_STEP_DEBUG under Actions, --verbose in a terminal). */
  debug(line: string): void
  warning(line: string, annotation?: Annotation): void
  error(line: string, annotation?: Annotation): void
  startGroup(title: string): void
  endGroup(): void
  /**
   * The latest state of a long wait, keyed by what waits (e.g. a step name): a terminal keeps one
   * live line per key, updated in place; the Actions log gets it as a line. An empty line ends the
   * key's live line (so does the end of the group it started in).
   */
  progress(key: string, line: string): void
  /** A value that must never be shown: masked by the runner, redacted by the terminal. */
  secret(value: string): void
}
