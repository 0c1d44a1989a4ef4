// Unit-test helper: a stand-in `helm` first on PATH that only reports its version, for ensureHelm's
// pinned-PATH route (src/helm/install.ts: a helm on PATH is used when helm-sha256 pins its bytes
// and it reports the wanted version). Every other helm command stays to be stubbed on the Helm
// class by the test. useHelmOnPath registers the hooks: the binary is written before the file's
// tests (in a temporary folder of its own) and PATH is put back and the folder removed after them.
import { afterAll, beforeAll } from '@jest/globals'
import { createHash } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export interface HelmOnPath {
  readonly version: string
  /** The folder put first on PATH and the `helm` in it (set once the file's tests start). */
  dir: string
  helmPath: string
  /** The SHA-256 of that `helm`: the helm-sha256 pin that lets the action run it. */
  sha256: string
}

export function useHelmOnPath(version = 'v3.19.0'): HelmOnPath {
  const helm: HelmOnPath = { version, dir: '', helmPath: '', sha256: '' }
  let savedPath: string | undefined
  beforeAll(() => {
    helm.dir = mkdtempSync(path.join(tmpdir(), 'helm-on-path-'))
    helm.helmPath = path.join(helm.dir, 'helm')
    writeFileSync(helm.helmPath, `#!/bin/sh\necho ${version}\n`)
    chmodSync(helm.helmPath, 0o755)
    helm.sha256 = createHash('sha256').update(readFileSync(helm.helmPath)).digest('hex')
    savedPath = process.env.PATH
    process.env.PATH = `${helm.dir}${path.delimiter}${savedPath ?? ''}`
  })
  afterAll(() => {
    process.env.PATH = savedPath
    rmSync(helm.dir, { recursive: true, force: true })
  })
  return helm
}
