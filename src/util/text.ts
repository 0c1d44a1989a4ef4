// Short text for people: a value cut to a length (strings as they are, others as JSON), and a
// message folded onto one line.

export const MAX_VALUE_CHARS = 120

/** A value as a short string for the report: strings as they are, others as JSON, long ones cut. */
export function shortValue(v: unknown, max = MAX_VALUE_CHARS): string {
  const text = v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** White space folded, cut to `max` characters. */
export function oneLine(text: string, max = 200): string {
  const t = text.replace(/\s+/g, ' ').trim()
  return t.length > max ? `${t.slice(0, max - 1)}…` : t
}
