// Plain log lines reach the runner only through the Log seam (src/log), which keeps untrusted text
// from becoming a workflow command: no other module of the action prints with core.info, console
// or a direct stdout write (main.ts's plan printer excepted, which guards the plan itself).
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const SRC = path.join(process.cwd(), 'src')
const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter(f => f.endsWith('.ts'))
  .map(f => path.join(SRC, f))

describe('the one Log seam', () => {
  it('no module outside src/log prints plain lines past it', () => {
    const offenders: string[] = []
    for (const file of files) {
      const rel = path.relative(process.cwd(), file)
      if (rel.startsWith(path.join('src', 'log') + path.sep)) continue
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // Comments, and lines of string literals (a script another process runs, e.g. the token helper).
          if (/^\s*(\/\/|\*|['"`])/.test(line)) return
          const direct = /\bcore\.info\(|\bconsole\.(log|info|warn|error)\(|process\.stdout\.write\(/.test(
            line
          )
          const planPrinter =
            rel === path.join('src', 'main.ts') && /process\.stdout\.write\(text\)/.test(line)
          if (direct && !planPrinter) offenders.push(`${rel}:${i + 1}: ${line.trim()}`)
        })
    }
    expect(offenders).toEqual([])
    expect(files.length).toBeGreaterThan(50)
  })
})
