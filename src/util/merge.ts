// Deep merge of plain objects (helm semantics: maps merge, lists and scalars replace).

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function deepMerge<T extends Record<string, unknown>>(
  base: T,
  over: Record<string, unknown> | undefined
): T {
  if (!over) return structuredClone(base)
  const out: Record<string, unknown> = structuredClone(base)
  for (const [k, v] of Object.entries(over)) {
    out[k] =
      isPlainObject(out[k]) && isPlainObject(v)
        ? deepMerge(out[k] as Record<string, unknown>, v)
        : structuredClone(v)
  }
  return out as T
}
