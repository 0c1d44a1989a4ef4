// ensureHelm: every helm the action runs is checked against a SHA-256 that did not come from the
// download's host. A helm on PATH is never run unless helm-sha256 pins it (and then only that
// binary); a download (from a local server standing in for get.helm.sh) is checked against the
// SHA-256 the action pins for the version and platform, never the host's own .sha256sum, before
// it is extracted or cached; a tool-cache hit is re-checked against the verified archive kept
// beside it, and a cache entry that fails (binary or archive replaced, or no archive) is
// downloaded again. A mismatch or a missing release is a clear error and nothing is cached.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as tc from '@actions/tool-cache'
import { HELM_CHECKSUMS } from '../../../src/helm/checksums.js'
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
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')

/**
 * Builds helm-<v>-linux-amd64.tar.gz holding linux-amd64/helm (a script printing its version),
 * served with a .sha256sum that matches it; returns the archive's SHA-256.
 */
function publish(version: string): string {
  const work = mkdtempSync(path.join(tmpdir(), 'helm-release-'))
  mkdirSync(path.join(work, 'linux-amd64'))
  const bin = path.join(work, 'linux-amd64', 'helm')
  writeFileSync(bin, `#!/bin/sh\nprintf '%s' '${version}'\n`)
  chmodSync(bin, 0o755)
  writeFileSync(path.join(work, 'linux-amd64', 'LICENSE'), 'Apache-2.0\n')
  const name = `helm-${version}-linux-amd64.tar.gz`
  execFileSync('tar', ['czf', path.join(work, name), '-C', work, 'linux-amd64'])
  const archive = readFileSync(path.join(work, name))
  files.set(`/${name}`, archive)
  files.set(`/${name}.sha256sum`, Buffer.from(`${sha256(archive)}  ${name}\n`))
  rmSync(work, { recursive: true, force: true })
  return sha256(archive)
}

/** The checksum table a test's own releases are pinned in (production pins the real ones). */
const pinned = (version: string, sha: string) => ({ [version]: { 'linux-amd64': sha } })

beforeAll(async () => {
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
beforeEach(() => {
  process.env.RUNNER_TOOL_CACHE = mkdtempSync(path.join(tmpdir(), 'tool-cache-'))
  process.env.PATH = `${binDir}${path.delimiter}${originalPath}`
})
afterAll(async () => {
  process.env.PATH = originalPath
  await new Promise(r => server.close(r))
})

describe('the pinned checksums', () => {
  it('hold helm v3.19.0 for every platform it is published for, as its release notes list them', () => {
    expect(Object.keys(HELM_CHECKSUMS['v3.19.0']).sort()).toEqual([
      'darwin-amd64',
      'darwin-arm64',
      'linux-386',
      'linux-amd64',
      'linux-arm',
      'linux-arm64',
      'linux-ppc64le',
      'linux-riscv64',
      'linux-s390x',
      'windows-amd64',
      'windows-arm64'
    ])
    expect(HELM_CHECKSUMS['v3.19.0']['linux-amd64']).toBe(
      'a7f81ce08007091b86d8bd696eb4d86b8d0f2e1b9f6c714be62f82f96a594496'
    )
    for (const sum of Object.values(HELM_CHECKSUMS['v3.19.0'])) expect(sum).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('a helm on PATH', () => {
  it('is never run without helm-sha256, even when it reports the pinned version', async () => {
    // The stand-in on PATH says v3.19.0; the "release" the host serves is not the real v3.19.0,
    // though its .sha256sum matches it: the pinned SHA-256 refuses it.
    publish(HELM_STANDIN_VERSION)
    const before = requests.length
    const err = (await ensureHelm(HELM_STANDIN_VERSION, { ...quiet, downloadBaseUrl: base }).catch(
      e => e
    )) as Error
    expect(err.message).toContain(`expected sha256 ${HELM_CHECKSUMS['v3.19.0']['linux-amd64']}`)
    // Only the archive was fetched: the host's .sha256sum is not consulted.
    expect(requests.slice(before)).toEqual([`/helm-${HELM_STANDIN_VERSION}-linux-amd64.tar.gz`])
    expect(tc.find('helm', HELM_STANDIN_VERSION, 'amd64')).toBe('')
  })

  it('is used when its binary has the helm-sha256, without any download', async () => {
    const standin = path.join(binDir, 'helm')
    const sha = sha256(readFileSync(standin))
    const lines: string[] = []
    const before = requests.length
    const p = await ensureHelm(HELM_STANDIN_VERSION.slice(1), {
      ...quiet,
      log: lineLog(l => lines.push(l)),
      downloadBaseUrl: base,
      pathSha256: sha.toUpperCase()
    })
    expect(p).toBe(standin)
    expect(requests.length).toBe(before)
    expect(lines.join('\n')).toContain(`sha256 ${sha}, as helm-sha256 pins`)
  })

  it('with another hash, or another version, or none on PATH: an error saying what to do, nothing run', async () => {
    const standin = path.join(binDir, 'helm')
    const actual = sha256(readFileSync(standin))
    const other = 'b'.repeat(64)
    await expect(ensureHelm(HELM_STANDIN_VERSION, { ...quiet, pathSha256: other })).rejects.toThrow(
      `helm on PATH (${standin}) has sha256 ${actual}, not the helm-sha256 ${other}; it was not run`
    )
    await expect(ensureHelm('v3.18.4', { ...quiet, pathSha256: actual })).rejects.toThrow(
      `has the helm-sha256 but reports version ${HELM_STANDIN_VERSION}, not helm-version v3.18.4`
    )
    process.env.PATH = mkdtempSync(path.join(tmpdir(), 'empty-path-'))
    await expect(ensureHelm(HELM_STANDIN_VERSION, { ...quiet, pathSha256: actual })).rejects.toThrow(
      'helm-sha256 is set but there is no helm on PATH'
    )
  })
})

describe('a download', () => {
  it('is checked against the pinned SHA-256, cached with its archive, and the cache re-checked', async () => {
    const sha = publish('v3.18.4')
    const lines: string[] = []
    const opts = {
      ...quiet,
      log: lineLog(l => lines.push(l)),
      downloadBaseUrl: base,
      checksums: pinned('v3.18.4', sha)
    }
    const p = await ensureHelm('v3.18.4', opts)
    expect(p.startsWith(process.env.RUNNER_TOOL_CACHE!)).toBe(true)
    expect(execFileSync(p).toString()).toBe('v3.18.4')
    expect(lines.join('\n')).toContain(`sha256 ${sha} verified`)
    expect(readdirSync(path.dirname(p)).sort()).toEqual([
      'LICENSE',
      'helm',
      'helm-v3.18.4-linux-amd64.tar.gz'
    ])
    const before = requests.length
    lines.length = 0
    expect(await ensureHelm('v3.18.4', opts)).toBe(p)
    expect(requests.length).toBe(before)
    expect(lines).toEqual([`Using helm v3.18.4 from the tool cache (sha256 ${sha} of its archive verified)`])
  })

  it('a cached binary replaced by another is not run: it is downloaded again', async () => {
    const sha = publish('v3.18.4')
    const opts = { ...quiet, downloadBaseUrl: base, checksums: pinned('v3.18.4', sha) }
    const p = await ensureHelm('v3.18.4', opts)
    writeFileSync(p, "#!/bin/sh\nprintf '%s' 'v3.18.4'\necho planted > /dev/null\n")
    const lines: string[] = []
    const before = requests.length
    const again = await ensureHelm('v3.18.4', { ...opts, log: lineLog(l => lines.push(l)) })
    expect(readFileSync(again, 'utf8')).not.toContain('planted')
    expect(requests.length).toBe(before + 1)
    expect(lines.join('\n')).toMatch(
      /has a binary \(sha256 [0-9a-f]{64}\) that is not the one in its verified archive; downloading it again/
    )
  })

  it('a cache entry whose archive was replaced, or that kept none, is downloaded again', async () => {
    const sha = publish('v3.18.4')
    const opts = { ...quiet, downloadBaseUrl: base, checksums: pinned('v3.18.4', sha) }
    const p = await ensureHelm('v3.18.4', opts)
    const archive = path.join(path.dirname(p), 'helm-v3.18.4-linux-amd64.tar.gz')
    writeFileSync(archive, 'not the archive')
    const lines: string[] = []
    const log = lineLog(l => lines.push(l))
    await ensureHelm('v3.18.4', { ...opts, log })
    expect(lines.join('\n')).toContain(
      `has an archive with sha256 ${sha256('not the archive')}, not the pinned ${sha}`
    )
    // A cache entry from before the archive was kept beside the binary.
    rmSync(archive)
    lines.length = 0
    const before = requests.length
    await ensureHelm('v3.18.4', { ...opts, log })
    expect(requests.length).toBe(before + 1)
    expect(lines.join('\n')).toContain(
      'cannot be checked (no verified archive beside it); downloading it again'
    )
  })

  it('refuses an archive whose SHA-256 is not the pinned one, naming both, and keeps nothing', async () => {
    const actual = publish('v3.17.2')
    const url = `${base}/helm-v3.17.2-linux-amd64.tar.gz`
    const tempBefore = readdirSync(process.env.RUNNER_TEMP!).length
    const err = (await ensureHelm('v3.17.2', {
      ...quiet,
      downloadBaseUrl: base,
      checksums: pinned('v3.17.2', 'a'.repeat(64))
    }).catch(e => e)) as Error
    expect(err.message).toContain(`Checksum mismatch for ${url}`)
    expect(err.message).toContain(`expected sha256 ${'a'.repeat(64)}`)
    expect(err.message).toContain(`the download has sha256 ${actual}`)
    expect(tc.find('helm', 'v3.17.2', 'amd64')).toBe('')
    expect(readdirSync(process.env.RUNNER_TEMP!).length).toBe(tempBefore)
  })

  it('a version or platform without a pinned SHA-256 is refused before any request', async () => {
    const before = requests.length
    await expect(ensureHelm('v3.1.2', { ...quiet, downloadBaseUrl: base })).rejects.toThrow(
      'helm v3.1.2 for linux-amd64: this action pins no SHA-256 for it (it pins v3.19.0), so it will not download it'
    )
    await expect(
      ensureHelm('v3.19.0', { ...quiet, platform: 'freebsd', downloadBaseUrl: base })
    ).rejects.toThrow('helm is not published for platform "freebsd"')
    expect(requests.length).toBe(before)
  })

  it('explains a pinned release that cannot be downloaded; refuses what is not a pinned version', async () => {
    await expect(
      ensureHelm('v3.1.3', { ...quiet, downloadBaseUrl: base, checksums: pinned('v3.1.3', 'c'.repeat(64)) })
    ).rejects.toThrow(
      `Failed to download ${base}/helm-v3.1.3-linux-amd64.tar.gz: HTTP 404. That helm release or platform does not exist`
    )
    expect(() => normaliseHelmVersion('3.x')).toThrow('helm version "3.x" is not a pinned release')
    expect(() => normaliseHelmVersion('latest')).toThrow('is not a pinned release')
  })
})
