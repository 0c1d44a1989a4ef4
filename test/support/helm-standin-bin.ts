// Test helper: a folder holding an executable `helm` that runs the helm stand-in as shipped
// (`node dist/cli.js __helm`, the same command line the simulator's world puts on PATH), so
// tests run it as a real child process of the bundle built by script/build.mjs. The action runs a
// helm from PATH only when helm-sha256 pins it: helmStandinSha256 is that pin for this stand-in;
// useHelmStandinOnPath puts it first on PATH for one test file (see CONTRIBUTING.md "Tests").
import { afterAll, beforeAll } from '@jest/globals'
import { createHash } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { HELM_STANDIN_VERSION } from '../../sim/helm/index.js'
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

export interface HelmOnPath {
  /** The version the stand-in reports (the helm-version that goes with the pin). */
  readonly version: string
  /** The folder put first on PATH and the `helm` in it (set once the file's tests start). */
  dir: string
  helmPath: string
  /** The helm-sha256 pin that lets the action run that `helm`. */
  sha256: string
}

/**
 * The stand-in first on PATH for the file's tests (ensureHelm's pinned-PATH route, src/helm/install.ts);
 * PATH is put back after them.
 */
export function useHelmStandinOnPath(): HelmOnPath {
  const helm: HelmOnPath = { version: HELM_STANDIN_VERSION, dir: '', helmPath: '', sha256: '' }
  let savedPath: string | undefined
  beforeAll(async () => {
    helm.dir = await helmStandinBinDir()
    helm.helmPath = path.join(helm.dir, 'helm')
    helm.sha256 = await helmStandinSha256()
    savedPath = process.env.PATH
    process.env.PATH = `${helm.dir}${path.delimiter}${savedPath ?? ''}`
  })
  afterAll(() => {
    process.env.PATH = savedPath
  })
  return helm
}
