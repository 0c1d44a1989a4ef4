// ensureHelm: a helm of the pinned version on PATH is used as is; otherwise the release archive is
// downloaded (from a local server standing in for get.helm.sh), its SHA-256 verified before use, and
// cached; a checksum mismatch or a missing release is a clear error and nothing is cached.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as tc from '@actions/tool-cache'
import { ensureHelm, normaliseHelmVersion } from '../../../src/helm/install.js'
import { lineLog, silentLog } from '../../../src/log/index.js'
import { HELM_STANDIN_VERSION } from '../../../sim/helm/index.js'
import { helmStandinBinDir } from '../../support/helm-standin-bin.js'

const files = new Map<string, Buffer>()
const requests: string[] = []
let server: Server
let base: string
let binDir: string
const originalPath = process.env.PATH
const quiet = { log: silentLog, platform: 'linux', arch: 'x64' }

/** Builds helm-<v>-linux-amd64.tar.gz holding linux-amd64/helm (a script printing its version). */
function publish(version: string, opts: { badSum?: boolean } = {}): string {
  const work = mkdtempSync(path.join(tmpdir(), 'helm-release-'))
  mkdirSync(path.join(work, 'linux-amd64'))
  const bin = path.join(work, 'linux-amd64', 'helm')
  writeFileSync(bin, `#!/bin/sh\nprintf '%s' '${version}'\n`)
  chmodSync(bin, 0o755)
  writeFileSync(path.join(work, 'linux-amd64', 'LICENSE'), 'Apache-2.0\n')
  const name = `helm-${version}-linux-amd64.tar.gz`
  execFileSync('tar', ['czf', path.join(work, name), '-C', work, 'linux-amd64'])
  const archive = readFileSync(path.join(work, name))
  const sum = opts.badSum ? 'a'.repeat(64) : createHash('sha256').update(archive).digest('hex')
  files.set(`/${name}`, archive)
  files.set(`/${name}.sha256sum`, Buffer.from(`${sum}  ${name}\n`))
  return createHash('sha256').update(archive).digest('hex')
}

beforeAll(async () => {
  process.env.RUNNER_TOOL_CACHE = mkdtempSync(path.join(tmpdir(), 'tool-cache-'))
  process.env.RUNNER_TEMP = mkdtempSync(path.join(tmpdir(), 'runner-temp-'))
  binDir = await helmStandinBinDir()
  server = createServer((req, res) => {
    requests.push(req.url ?? '')
    const body = files.get(req.url ?? '')
    if (!body) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-length': body.length }).end(body)
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  process.env.PATH = originalPath
  await new Promise(r => server.close(r))
})

describe('ensureHelm', () => {
  it('uses a helm on PATH that reports exactly the pinned version, without downloading', async () => {
    process.env.PATH = `${binDir}${path.delimiter}${originalPath}`
    const before = requests.length
    const p = await ensureHelm(HELM_STANDIN_VERSION, { ...quiet, downloadBaseUrl: base })
    expect(p).toBe(path.join(binDir, 'helm'))
    expect(requests.length).toBe(before)
    // `3.19.0` means the same pinned release.
    expect(await ensureHelm(HELM_STANDIN_VERSION.slice(1), { ...quiet, downloadBaseUrl: base })).toBe(p)
  })

  it('downloads, verifies and caches another version, then reuses the cache', async () => {
    process.env.PATH = `${binDir}${path.delimiter}${originalPath}`
    const sha = publish('v3.18.4')
    const lines: string[] = []
    const p = await ensureHelm('v3.18.4', {
      ...quiet,
      log: lineLog(l => lines.push(l)),
      downloadBaseUrl: base
    })
    expect(p.startsWith(process.env.RUNNER_TOOL_CACHE!)).toBe(true)
    expect(path.basename(p)).toBe('helm')
    expect(execFileSync(p).toString()).toBe('v3.18.4')
    expect(requests).toEqual(
      expect.arrayContaining([
        '/helm-v3.18.4-linux-amd64.tar.gz.sha256sum',
        '/helm-v3.18.4-linux-amd64.tar.gz'
      ])
    )
    expect(lines.join('\n')).toContain(`sha256 ${sha} verified`)
    expect(tc.find('helm', 'v3.18.4', 'amd64')).toBe(path.dirname(p))
    const before = requests.length
    expect(await ensureHelm('v3.18.4', { ...quiet, downloadBaseUrl: base })).toBe(p)
    expect(requests.length).toBe(before)
  })

  it('refuses an archive whose SHA-256 does not match, naming both hashes and the URL, and caches nothing', async () => {
    const actual = publish('v3.17.2', { badSum: true })
    const url = `${base}/helm-v3.17.2-linux-amd64.tar.gz`
    const tempBefore = readdirSync(process.env.RUNNER_TEMP!).length
    const err = (await ensureHelm('v3.17.2', { ...quiet, downloadBaseUrl: base }).catch(e => e)) as Error
    expect(err).toBeInstanceOf(Error)
    expect(err.message).toContain(`Checksum mismatch for ${url}`)
    expect(err.message).toContain(`expected sha256 ${'a'.repeat(64)}`)
    expect(err.message).toContain(`sha256 ${actual}`)
    expect(tc.find('helm', 'v3.17.2', 'amd64')).toBe('')
    // Neither the archive nor anything extracted from it is left behind.
    expect(readdirSync(process.env.RUNNER_TEMP!).length).toBe(tempBefore)
  })

  it('explains a release that cannot be downloaded', async () => {
    await expect(ensureHelm('v3.1.2', { ...quiet, downloadBaseUrl: base })).rejects.toThrow(
      `Failed to download ${base}/helm-v3.1.2-linux-amd64.tar.gz.sha256sum: HTTP 404. That helm release or platform does not exist`
    )
  })

  it('resolves "latest" through helm-latest-version and refuses unpinned versions', async () => {
    files.set('/helm-latest-version', Buffer.from('v3.18.4\n'))
    process.env.PATH = originalPath
    const p = await ensureHelm('latest', { ...quiet, downloadBaseUrl: base })
    expect(execFileSync(p).toString()).toBe('v3.18.4')
    expect(() => normaliseHelmVersion('3.x')).toThrow('helm version "3.x" is not a pinned release')
    await expect(ensureHelm('stable', { ...quiet, downloadBaseUrl: base })).rejects.toThrow(
      'is not a pinned release'
    )
  })
})
