// A Log that keeps every line it is given (`info: …`, `warning: …`, `group: …`), for tests that
// check what a module said; no simulated world behind it, so unit tests can use it.
import type { Log } from '../../src/log/index.js'

export interface CapturedLog extends Log {
  lines: string[]
  warnings: string[]
  text(): string
}

export function captureLog(): CapturedLog {
  const lines: string[] = []
  const warnings: string[] = []
  return {
    lines,
    warnings,
    info: m => lines.push(`info: ${m}`),
    warning: m => {
      lines.push(`warning: ${m}`)
      warnings.push(m)
    },
    debug: m => lines.push(`debug: ${m}`),
    error: m => lines.push(`error: ${m}`),
    startGroup: t => lines.push(`group: ${t}`),
    endGroup: () => undefined,
    // The empty line that ends a key's live line is no line.
    progress: (_key, m) => void (m && lines.push(`info: ${m}`)),
    secret: () => undefined,
    text: () => lines.join('\n')
  }
}
