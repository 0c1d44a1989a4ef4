// Getting a helm binary for the action: a `helm` already on PATH is used when it reports exactly the
// pinned version; otherwise the tool cache, otherwise a download from get.helm.sh whose SHA-256 is
// verified against the published `.sha256sum` BEFORE the archive is extracted or cached (a
// mismatch is an error, never a warning). `latest` is resolved through `helm-latest-version`.
import { getExecOutput } from '@actions/exec'
import * as io from '@actions/io'
import * as tc from '@actions/tool-cache'
import { createHash } from 'node:crypto'
import { createReadStream, existsSync, readFileSync, chmodSync, rmSync } from 'node:fs'
import path from 'node:path'
import { log as processLog, type Log } from '../log/index.js'

export const HELM_DOWNLOAD_BASE_URL = 'https://get.helm.sh'

export interface EnsureHelmOptions {
  /** Where releases are downloaded from (default https://get.helm.sh; tests point it at a local server). */
  downloadBaseUrl?: string
  /** Node platform (default process.platform). */
  platform?: string
  /** Node architecture (default process.arch). */
  arch?: string
  /** Progress lines (default: the process-wide log). */
  log?: Log
}

const PINNED = /^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/

/** helm's name for the operating system. */
export function helmOs(platform: string): string {
  if (platform === 'win32') return 'windows'
  if (platform === 'linux' || platform === 'darwin') return platform
  throw new Error(`helm is not published for platform "${platform}"`)
}

/** helm's name for the CPU architecture. */
export function helmArch(arch: string): string {
  const map: Record<string, string> = {
    x64: 'amd64',
    arm64: 'arm64',
    arm: 'arm',
    ia32: '386',
    ppc64: 'ppc64le',
    s390x: 's390x',
    riscv64: 'riscv64'
  }
  const a = map[arch]
  if (!a) throw new Error(`helm is not published for architecture "${arch}"`)
  return a
}

/** `3.19.0` → `v3.19.0`; `latest` stays; anything else that is not vX.Y.Z is refused. */
export function normaliseHelmVersion(version: string): string {
  const v = version.trim()
  if (v === 'latest') return v
  const withV = v.startsWith('v') ? v : `v${v}`
  if (!PINNED.test(withV)) {
    throw new Error(
      `helm version "${version}" is not a pinned release: use vX.Y.Z (for example v3.19.0) or "latest"`
    )
  }
  return withV
}

async function download(url: string): Promise<string> {
  try {
    return await tc.downloadTool(url)
  } catch (e) {
    const status = e instanceof tc.HTTPError ? e.httpStatusCode : undefined
    const why = status ? `HTTP ${status}` : (e as Error).message
    throw new Error(
      `Failed to download ${url}: ${why}. ` +
        (status === 404
          ? 'That helm release or platform does not exist; check the version against https://github.com/helm/helm/releases.'
          : 'Check the runner can reach the download host (proxy, firewall) or pre-install helm on PATH.')
    )
  }
}

/** SHA-256 of a file, hex. */
export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256')
    createReadStream(file)
      .on('data', d => h.update(d))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject)
  })
}

/** The hash in a `.sha256sum` file (`<hex>  <name>`) or a bare `.sha256` file. */
export function parseSha256Sum(text: string, url: string): string {
  const first = text.trim().split(/\s+/)[0]?.toLowerCase() ?? ''
  if (!/^[0-9a-f]{64}$/.test(first)) throw new Error(`${url} does not contain a SHA-256 checksum`)
  return first
}

async function resolveLatest(base: string): Promise<string> {
  const url = `${base}/helm-latest-version`
  const file = await download(url)
  try {
    const v = readFileSync(file, 'utf8').trim()
    if (!PINNED.test(v)) throw new Error(`${url} returned "${v.slice(0, 40)}", not a helm version`)
    return v
  } finally {
    rmSync(file, { force: true })
  }
}

/** The version a helm binary reports (`helm version --template {{.Version}}`), or undefined if it does not run. */
export async function helmBinaryVersion(helmPath: string): Promise<string | undefined> {
  try {
    const r = await getExecOutput(helmPath, ['version', '--template', '{{.Version}}'], {
      silent: true,
      ignoreReturnCode: true
    })
    return r.exitCode === 0 ? r.stdout.trim() : undefined
  } catch {
    return undefined
  }
}

/**
 * Returns the path of a helm binary of exactly `version` (vX.Y.Z or `latest`): PATH, then the tool
 * cache, then a verified download.
 */
export async function ensureHelm(version: string, opts: EnsureHelmOptions = {}): Promise<string> {
  const log = opts.log ?? processLog
  const base = (opts.downloadBaseUrl ?? HELM_DOWNLOAD_BASE_URL).replace(/\/+$/, '')
  const os = helmOs(opts.platform ?? process.platform)
  const arch = helmArch(opts.arch ?? process.arch)
  const exe = os === 'windows' ? 'helm.exe' : 'helm'
  let want = normaliseHelmVersion(version)
  if (want === 'latest') {
    want = await resolveLatest(base)
    log.info(`helm "latest" is ${want}`)
  }

  const onPath = await io.which('helm', false)
  if (onPath) {
    const have = await helmBinaryVersion(onPath)
    if (have === want) {
      log.info(`Using helm ${have} from PATH (${onPath})`)
      return onPath
    }
    log.info(`helm on PATH (${onPath}) is ${have ?? 'not runnable'}, not ${want}; using a pinned copy`)
  }

  const cached = tc.find('helm', want, arch)
  if (cached && existsSync(path.join(cached, exe))) {
    log.info(`Using helm ${want} from the tool cache`)
    return path.join(cached, exe)
  }

  const ext = os === 'windows' ? 'zip' : 'tar.gz'
  const url = `${base}/helm-${want}-${os}-${arch}.${ext}`
  const sumUrl = `${url}.sha256sum`
  log.info(`Downloading ${url}`)
  const sumFile = await download(sumUrl)
  const expected = parseSha256Sum(readFileSync(sumFile, 'utf8'), sumUrl)
  rmSync(sumFile, { force: true })
  const archive = await download(url)
  const actual = await sha256File(archive)
  if (actual !== expected) {
    rmSync(archive, { force: true })
    throw new Error(
      `Checksum mismatch for ${url}: expected sha256 ${expected} (from ${sumUrl}) but the download has sha256 ${actual}. ` +
        'The file was discarded and not used; retry, and if it persists report it (the download may have been tampered with).'
    )
  }
  const extracted = ext === 'zip' ? await tc.extractZip(archive) : await tc.extractTar(archive)
  rmSync(archive, { force: true })
  const inner = path.join(extracted, `${os}-${arch}`)
  if (!existsSync(path.join(inner, exe))) {
    throw new Error(`${url} does not contain ${os}-${arch}/${exe}`)
  }
  const toolDir = await tc.cacheDir(inner, 'helm', want, arch)
  const helmPath = path.join(toolDir, exe)
  if (os !== 'windows') chmodSync(helmPath, 0o755)
  log.info(`Installed helm ${want} (sha256 ${actual} verified) at ${helmPath}`)
  return helmPath
}
