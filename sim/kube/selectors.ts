// Kubernetes label and field selectors, parsed once and matched against objects, and a
// LabelSelector written back as its string form.

export type Requirement =
  { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | 'doesnotexist' }

export class SelectorError extends Error {}

function splitTop(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of text) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (ch === ',' && depth === 0) {
      parts.push(cur)
      cur = ''
    } else cur += ch
  }
  if (cur.trim()) parts.push(cur)
  return parts.map(p => p.trim()).filter(Boolean)
}

export function parseLabelSelector(text: string | undefined): Requirement[] {
  if (!text) return []
  return splitTop(text).map(part => {
    let m = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part)
    if (m) return { key: m[1], op: m[2] as 'in' | 'notin', values: m[3].split(',').map(v => v.trim()) }
    m = /^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/.exec(part)
    if (m) return { key: m[1], op: m[2] === '!=' ? 'notin' : 'in', values: [m[3]] }
    m = /^!\s*([^\s!=]+)$/.exec(part)
    if (m) return { key: m[1], op: 'doesnotexist' }
    m = /^([^\s!=(),]+)$/.exec(part)
    if (m) return { key: m[1], op: 'exists' }
    throw new SelectorError(`unable to parse requirement: "${part}"`)
  })
}

export function matchesLabels(reqs: Requirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {}
  return reqs.every(r => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key)
    switch (r.op) {
      case 'exists':
        return has
      case 'doesnotexist':
        return !has
      case 'in':
        return has && r.values.includes(l[r.key])
      case 'notin':
        return !has || !r.values.includes(l[r.key])
    }
  })
}

/** Label selector object form (`matchLabels` / `matchExpressions`), as in DaemonSet specs. */
export function matchesLabelSelectorObject(
  sel:
    | {
        matchLabels?: Record<string, string>
        matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>
      }
    | undefined,
  labels: Record<string, string> | undefined
): boolean {
  if (!sel) return true
  const reqs: Requirement[] = Object.entries(sel.matchLabels ?? {}).map(([key, v]) => ({
    key,
    op: 'in' as const,
    values: [v]
  }))
  for (const e of sel.matchExpressions ?? []) {
    const op = e.operator.toLowerCase()
    if (op === 'in' || op === 'notin') reqs.push({ key: e.key, op, values: e.values ?? [] })
    else if (op === 'exists') reqs.push({ key: e.key, op: 'exists' })
    else if (op === 'doesnotexist') reqs.push({ key: e.key, op: 'doesnotexist' })
  }
  return matchesLabels(reqs, labels)
}

export interface FieldRequirement {
  path: string
  op: '=' | '!='
  value: string
}

export function parseFieldSelector(text: string | undefined): FieldRequirement[] {
  if (!text) return []
  return splitTop(text).map(part => {
    const m = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(part)
    if (!m) throw new SelectorError(`invalid field selector: "${part}"`)
    return { path: m[1], op: m[2] === '!=' ? '!=' : '=', value: m[3].trim() }
  })
}

function getPath(obj: unknown, path: string): string {
  let cur: unknown = obj
  for (const p of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return ''
    cur = (cur as Record<string, unknown>)[p]
  }
  return cur === undefined || cur === null ? '' : String(cur)
}

export function matchesFields(reqs: FieldRequirement[], obj: unknown): boolean {
  return reqs.every(r => (getPath(obj, r.path) === r.value) === (r.op === '='))
}

interface LabelSelectorRequirement {
  key: string
  operator: string
  values?: string[]
}

/** A LabelSelector as its string form (`app=x,tier in (a,b)`), requirements sorted by key. */
export function selectorString(
  sel: { matchLabels?: Record<string, string>; matchExpressions?: LabelSelectorRequirement[] } | undefined
): string {
  const parts: Array<[string, string]> = []
  for (const [k, v] of Object.entries(sel?.matchLabels ?? {})) parts.push([k, `${k}=${v}`])
  for (const e of sel?.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',')
    const text =
      e.operator === 'In'
        ? `${e.key} in (${values})`
        : e.operator === 'NotIn'
          ? `${e.key} notin (${values})`
          : e.operator === 'Exists'
            ? e.key
            : `!${e.key}`
    parts.push([e.key, text])
  }
  return parts
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(p => p[1])
    .join(',')
}
