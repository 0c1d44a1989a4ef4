// Test helper: a folder holding an executable `helm` that runs the helm stand-in as shipped
// (`node dist/cli.js __helm`, the same command line the simulator's world puts on PATH), so
// tests run it as a real child process of the bundle built by script/build.mjs. The action runs a
// helm from PATH only when helm-sha256 pins it: helmStandinSha256 is that pin for this stand-in.
import { createHash } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { bundlePath } from './dist.js'

let dir: string | undefined

/** The command line that runs the helm stand-in (for startWorld's helmCommand). */
export function helmStandinCommand(): string[] {
  return [process.execPath, bundlePath('cli'), '__helm']
}

/** Directory holding an executable `helm` (the stand-in); put it first on PATH. */
export async function helmStandinBinDir(): Promise<string> {
  if (!dir) {
    dir = mkdtempSync(path.join(tmpdir(), 'helm-standin-'))
    const quoted = helmStandinCommand()
      .map(a => `'${a.replace(/'/g, `'\\''`)}'`)
      .join(' ')
    writeFileSync(path.join(dir, 'helm'), `#!/bin/sh\nexec ${quoted} "$@"\n`)
    chmodSync(path.join(dir, 'helm'), 0o755)
  }
  return dir
}

/** The SHA-256 of the stand-in's `helm` (the helm-sha256 input that lets the action run it from PATH). */
export async function helmStandinSha256(): Promise<string> {
  return createHash('sha256')
    .update(readFileSync(path.join(await helmStandinBinDir(), 'helm')))
    .digest('hex')
}
