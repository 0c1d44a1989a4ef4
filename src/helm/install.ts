// Gets a helm binary, every one checked against a pinned SHA-256; a mismatch is an error, never a
// warning. Rules: docs/security.md#helm-is-checked-against-pinned-sha-256-values.
import { getExecOutput } from '@actions/exec'
import * as io from '@actions/io'
import * as tc from '@actions/tool-cache'
import { createHash } from 'node:crypto'
import { copyFileSync, createReadStream, existsSync, chmodSync, realpathSync, rmSync } from 'node:fs'
import path from 'node:path'
import { log as processLog, type Log } from '../log/index.js'
import { HELM_CHECKSUMS, helmChecksumVersions, type HelmChecksums } from './checksums.js'

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
  /**
   * The SHA-256 a helm on PATH must have to be used (settings.stack.helmSha256). Unset: a helm on
   * PATH is never run; the pinned version is taken from the tool cache or downloaded.
   */
  pathSha256?: string
  /** The pinned archive checksums (default HELM_CHECKSUMS; tests serving their own releases pass theirs). */
  checksums?: HelmChecksums
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

/** `3.19.0` → `v3.19.0`; anything that is not vX.Y.Z is refused (`latest` cannot be pinned). */
export function normaliseHelmVersion(version: string): string {
  const v = version.trim()
  const withV = v.startsWith('v') ? v : `v${v}`
  if (!PINNED.test(withV)) {
    throw new Error(`helm version "${version}" is not a pinned release: use vX.Y.Z (for example v3.19.0)`)
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
          : 'Check the runner can reach the download host (proxy, firewall), or install helm on the runner and set helm-sha256 to its hash.')
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

/** The helm on PATH, used only when its binary has the SHA-256 the user pinned (helm-sha256). */
async function helmFromPath(want: string, sha256: string, log: Log): Promise<string> {
  const onPath = await io.which('helm', false)
  if (!onPath)
    throw new Error(
      `helm-sha256 is set but there is no helm on PATH: install helm ${want} on the runner, or remove helm-sha256 to have the action download it`
    )
  // The file itself (not a link that could be re-pointed between the check and the run).
  const file = realpathSync(onPath)
  const actual = await sha256File(file)
  if (actual !== sha256.toLowerCase())
    throw new Error(
      `helm on PATH (${onPath}) has sha256 ${actual}, not the helm-sha256 ${sha256.toLowerCase()}; it was not run. ` +
        `Set helm-sha256 to the hash of the helm you installed, or remove it to have the action download helm ${want}`
    )
  const have = await helmBinaryVersion(file)
  if (have !== want)
    throw new Error(
      `helm on PATH (${onPath}) has the helm-sha256 but reports version ${have ?? '(none)'}, not helm-version ${want}; set helm-version to match it`
    )
  log.info(`Using helm ${have} from PATH (${onPath}: sha256 ${actual}, as helm-sha256 pins)`)
  return file
}

/** The SHA-256 of the `<os>-<arch>/<exe>` member of a release archive (extracted to a temporary folder). */
async function memberSha256(
  archive: string,
  zip: boolean,
  inner: string,
  exe: string
): Promise<string | undefined> {
  const dir = zip ? await tc.extractZip(archive) : await tc.extractTar(archive)
  try {
    const bin = path.join(dir, inner, exe)
    return existsSync(bin) ? await sha256File(bin) : undefined
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

interface Release {
  version: string
  arch: string
  /** `<os>-<arch>`: the archive's folder and the checksum table's key. */
  platform: string
  exe: string
  zip: boolean
  archiveName: string
  /** The pinned SHA-256 of the archive. */
  sha256: string
}

/**
 * The cached helm of `r`, when it can still be trusted: the verified archive kept beside it has the
 * pinned SHA-256 and the binary is the archive's own. Otherwise undefined (with the reason logged),
 * and the caller downloads it again, replacing the cache entry.
 */
async function verifiedFromCache(r: Release, log: Log): Promise<string | undefined> {
  const dir = tc.find('helm', r.version, r.arch)
  if (!dir) return undefined
  const bin = path.join(dir, r.exe)
  const archive = path.join(dir, r.archiveName)
  const redo = (why: string, warn = true): undefined => {
    ;(warn ? log.warning : log.info)(
      `The tool cache's helm ${r.version} (${dir}) ${why}; downloading it again`
    )
    return undefined
  }
  if (!existsSync(bin) || !existsSync(archive))
    return redo('cannot be checked (no verified archive beside it)', false)
  const archiveSha = await sha256File(archive)
  if (archiveSha !== r.sha256)
    return redo(`has an archive with sha256 ${archiveSha}, not the pinned ${r.sha256}`)
  const [inArchive, cached] = [await memberSha256(archive, r.zip, r.platform, r.exe), await sha256File(bin)]
  if (inArchive !== cached)
    return redo(`has a binary (sha256 ${cached}) that is not the one in its verified archive`)
  log.info(`Using helm ${r.version} from the tool cache (sha256 ${r.sha256} of its archive verified)`)
  return bin
}

/** Downloads the release archive, checks it against the pinned SHA-256, extracts and caches it. */
async function downloadVerified(r: Release, base: string, log: Log): Promise<string> {
  const url = `${base}/${r.archiveName}`
  log.info(`Downloading ${url}`)
  const archive = await download(url)
  try {
    const actual = await sha256File(archive)
    if (actual !== r.sha256)
      throw new Error(
        `Checksum mismatch for ${url}: expected sha256 ${r.sha256} (pinned by this action for helm ${r.version} ${r.platform}) but the download has sha256 ${actual}. ` +
          'The file was discarded and not used; retry, and if it persists report it (the download may have been tampered with).'
      )
    const extracted = r.zip ? await tc.extractZip(archive) : await tc.extractTar(archive)
    try {
      const inner = path.join(extracted, r.platform)
      if (!existsSync(path.join(inner, r.exe)))
        throw new Error(`${url} does not contain ${r.platform}/${r.exe}`)
      // The verified archive stays beside the binary: later cache hits are checked against it.
      copyFileSync(archive, path.join(inner, r.archiveName))
      const toolDir = await tc.cacheDir(inner, 'helm', r.version, r.arch)
      const helmPath = path.join(toolDir, r.exe)
      if (!r.zip) chmodSync(helmPath, 0o755)
      log.info(`Installed helm ${r.version} (sha256 ${actual} verified) at ${helmPath}`)
      return helmPath
    } finally {
      rmSync(extracted, { recursive: true, force: true })
    }
  } finally {
    rmSync(archive, { force: true })
  }
}

/**
 * Returns the path of a helm binary of exactly `version` (vX.Y.Z) that was checked against a pinned
 * SHA-256: the helm on PATH when opts.pathSha256 pins it; otherwise the tool cache (re-verified)
 * or a verified download.
 */
export async function ensureHelm(version: string, opts: EnsureHelmOptions = {}): Promise<string> {
  const log = opts.log ?? processLog
  const want = normaliseHelmVersion(version)
  if (opts.pathSha256) return helmFromPath(want, opts.pathSha256, log)
  const base = (opts.downloadBaseUrl ?? HELM_DOWNLOAD_BASE_URL).replace(/\/+$/, '')
  const os = helmOs(opts.platform ?? process.platform)
  const arch = helmArch(opts.arch ?? process.arch)
  const platform = `${os}-${arch}`
  const zip = os === 'windows'
  const sums = opts.checksums ?? HELM_CHECKSUMS
  const sha256 = sums[want]?.[platform]
  if (!sha256)
    throw new Error(
      `helm ${want} for ${platform}: this action pins no SHA-256 for it (it pins ${helmChecksumVersions(sums).join(', ')}), so it will not download it. ` +
        'Use a pinned helm-version, or install helm on the runner and set helm-sha256 to its hash'
    )
  const release: Release = {
    version: want,
    arch,
    platform,
    exe: zip ? 'helm.exe' : 'helm',
    zip,
    archiveName: `helm-${want}-${platform}.${zip ? 'zip' : 'tar.gz'}`,
    sha256
  }
  return (await verifiedFromCache(release, log)) ?? downloadVerified(release, base, log)
}
