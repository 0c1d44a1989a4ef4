// Values quoted back in error messages and annotations: shown as JSON strings, cut to a bounded
// length with the full size said, so an oversized input (a 120 KB cluster name) never comes back
// whole in a log line, an annotation or a report.

/** Longest part of a value an error message quotes. */
export const ECHO_MAX_CHARS = 64

/** `text` cut to `max` characters with `…` when longer. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  return `${text.slice(0, Math.max(0, max - 1))}…`
}

/** A value as an error message quotes it: `"abc"`, or `"abcd…" (120000 characters)` when long. */
export function echoValue(value: string, max = ECHO_MAX_CHARS): string {
  if (value.length <= max) return JSON.stringify(value)
  return `${JSON.stringify(truncate(value, max))} (${value.length} characters)`
}
