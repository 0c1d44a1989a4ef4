// GitHub-flavoured Markdown building blocks for the job summary: escaping of untrusted text (inline
// and in table cells), code spans that survive a table, tables and fences. No I/O. See docs/job-summary.md.
import { truncate } from '../util/echo.js'

/** Longest table cell in characters unless a caller says otherwise. */
export const DEFAULT_CELL_CHARS = 300

/** Escapes text for inline Markdown: HTML-significant characters and Markdown punctuation, newlines → space. */
export function escapeInline(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]~|#]/g, c => `\\${c}`)
    .replace(/\r?\n/g, ' ')
}

/** One line of cell text escaped (no length cap): HTML-significant characters, Markdown punctuation, pipes. */
function escapeCellLine(line: string): string {
  return line
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]~|]/g, c => `\\${c}`)
}

/** Escapes text for a GFM table cell: pipes and backslashes escaped, newlines → `<br>`, length capped. */
export function escapeCell(text: string, maxChars = DEFAULT_CELL_CHARS): string {
  return truncate(text.replace(/\r\n?/g, '\n').trim(), maxChars).split('\n').map(escapeCellLine).join('<br>')
}

/** A code span of `text` that is safe in a table cell: newlines → spaces, pipes escaped, long enough delimiter. */
export function codeSpan(text: string): string {
  const body = text.replace(/\r\n?|\n/g, ' ').replace(/\|/g, '\\|')
  const longest = (body.match(/`+/g) ?? []).reduce((m, r) => Math.max(m, r.length), 0)
  const tick = '`'.repeat(longest + 1)
  const pad = body.startsWith('`') || body.endsWith('`') || /^ .* $/.test(body) ? ' ' : ''
  return `${tick}${pad}${body}${pad}${tick}`
}

/** A name in a code span (pipes escaped for tables); falls back to escaped text when it holds a backtick. */
export function code(text: string): string {
  if (/[`\r\n]/.test(text) || text === '') return escapeCell(text)
  return `\`${text.replace(/\|/g, '\\|')}\``
}

/**
 * Text for a table cell whose own code spans (`…`, CommonMark's rule: a run of n backticks closed by the
 * next run of exactly n) stay code spans and whose other text is escaped; newlines outside spans become
 * `<br>`. Never cut: for cells that must be read whole (a fix, a command).
 */
export function cellWithCode(text: string): string {
  const src = text.replace(/\r\n?/g, '\n').trim()
  const plain = (t: string): string => t.split('\n').map(escapeCellLine).join('<br>')
  let out = ''
  let pending = ''
  let i = 0
  while (i < src.length) {
    if (src[i] !== '`') {
      pending += src[i++]
      continue
    }
    let j = i
    while (src[j] === '`') j++
    const n = j - i
    let close = -1
    for (let k = j; k < src.length;) {
      if (src[k] !== '`') {
        k++
        continue
      }
      let m = k
      while (src[m] === '`') m++
      if (m - k === n) {
        close = k
        break
      }
      k = m
    }
    if (close < 0) {
      pending += src.slice(i, j)
      i = j
      continue
    }
    out += plain(pending) + codeSpan(src.slice(j, close))
    pending = ''
    i = close + n
  }
  return out + plain(pending)
}

export function table(headers: string[], rows: string[][], align?: Array<'left' | 'right'>): string {
  const line = (cells: string[]) => `| ${cells.map(c => (c === '' ? ' ' : c)).join(' | ')} |`
  const rule = headers.map((_, i) => (align?.[i] === 'right' ? '---:' : '---'))
  return [line(headers), line(rule), ...rows.map(line)].join('\n')
}

/** A code fence longer than any backtick run in `text`. */
export function fence(text: string): string {
  const runs = text.match(/`+/g) ?? []
  const longest = runs.reduce((m, r) => Math.max(m, r.length), 0)
  return '`'.repeat(Math.max(3, longest + 1))
}
