// `--inputs-file FILE`: NAME=value lines loaded into this process before the command runs, read only
// from a file no one else could have written (docs/running-locally.md, docs/security.md).
import { lstatSync, type Stats } from 'node:fs'
import tls from 'node:tls'
import { parseEnv } from 'node:util'
import { INPUTS } from '../src/settings/input-definitions.js'
import { inputEnvName } from '../src/run/inputs.js'
import { DEFAULT_MAX_FILE_BYTES, FileInputError, readBoundedFile } from '../src/util/files.js'
import { INPUTS_FILE_FLAG, UsageError } from './flags.js'

/** Set in a re-run so it does not re-run again. */
export const CA_REEXEC_ENV = 'AKS_RDMA_ACTION_CA_LOADED'

/**
 * Variables an inputs file may not set: each makes Node or the dynamic loader load code of its
 * choosing into this command and every process it starts.
 */
export const REFUSED_ENV = [
  'NODE_OPTIONS',
  'LD_PRELOAD',
  'LD_AUDIT',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES'
] as const

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined
}

/**
 * Why a file with this status could have been written by someone else (undefined when it could
 * not): owned by another user than the current one or root, or writable by its group or by every
 * user. `st` is the status of the open file, a symbolic link's target.
 */
export function writableByOthers(st: Pick<Stats, 'uid' | 'mode'>, uid = currentUid()): string | undefined {
  if (uid !== undefined && st.uid !== uid && st.uid !== 0)
    return `is owned by another user (uid ${st.uid}); it could set any variable of this command`
  if (st.mode & 0o022)
    return `is writable by ${st.mode & 0o002 ? 'every user' : 'its group'} (chmod go-w it); it could set any variable of this command`
  return undefined
}

/** Why a symbolic link at `file` could have been pointed elsewhere by someone else. */
function foreignLink(file: string, uid = currentUid()): string | undefined {
  let st: ReturnType<typeof lstatSync>
  try {
    st = lstatSync(file)
  } catch {
    return undefined // reported by the read
  }
  if (!st.isSymbolicLink() || uid === undefined || st.uid === uid || st.uid === 0) return undefined
  return `is a symbolic link owned by another user (uid ${st.uid}), who could point it at any file`
}

/** Reads the file's variables (throws UsageError when it cannot be read or may not be used). */
export function readInputsFile(file: string): Record<string, string> {
  const link = foreignLink(file)
  if (link) throw new UsageError(`${INPUTS_FILE_FLAG} ${file}: ${link}`)
  let text: string
  try {
    // Judged on the open file (a link's target), so a file swapped in after a check is judged too.
    text = readBoundedFile(file, DEFAULT_MAX_FILE_BYTES, st => writableByOthers(st))
  } catch (e) {
    if (e instanceof FileInputError) throw new UsageError(`${INPUTS_FILE_FLAG} ${file}: ${e.reason}`)
    throw e
  }
  const values = parseEnv(text) as Record<string, string>
  const refused = REFUSED_ENV.filter(k => k in values)
  if (refused.length)
    throw new UsageError(
      `${INPUTS_FILE_FLAG} ${file}: sets ${refused.join(', ')}, which would load code into this command and every process it starts; ` +
        'set it in your shell if you mean it'
    )
  return values
}

/** The PEM certificates of a bundle file. */
export function pemCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
}

type TlsWithDefaults = typeof tls & {
  getCACertificates?: (type?: 'default' | 'bundled' | 'system' | 'extra') => string[]
  setDefaultCACertificates?: (certs: string[]) => void
}

/**
 * Makes a CA bundle trusted by this process's TLS connections from now on. Returns false when
 * this Node cannot (no tls.setDefaultCACertificates): the command must then be re-run with
 * NODE_EXTRA_CA_CERTS in its environment.
 */
export function trustCaBundle(file: string): boolean {
  const t = tls as TlsWithDefaults
  if (!t.setDefaultCACertificates || !t.getCACertificates) return false
  let certs: string[]
  try {
    certs = pemCertificates(readBoundedFile(file))
  } catch (e) {
    if (e instanceof FileInputError) throw new UsageError(`NODE_EXTRA_CA_CERTS ${file}: ${e.reason}`)
    throw e
  }
  if (!certs.length) throw new UsageError(`NODE_EXTRA_CA_CERTS ${file}: no PEM certificate in it`)
  t.setDefaultCACertificates([...t.getCACertificates('default'), ...certs])
  return true
}

export interface InputsFileResult {
  /** The names set from the file. */
  names: string[]
  /** The inputs the file gives (its INPUT_<NAME> lines), by input name. */
  inputs: Record<string, string>
  /** The file named a CA bundle this Node could not load in-process: re-run the command. */
  reexec: boolean
}

/** Loads the file into `env` (the file wins over the environment) and trusts its CA bundle. */
export function loadInputsFile(file: string, env: NodeJS.ProcessEnv = process.env): InputsFileResult {
  const values = readInputsFile(file)
  for (const [k, v] of Object.entries(values)) env[k] = v
  const ca = values.NODE_EXTRA_CA_CERTS
  let reexec = false
  if (ca && env[CA_REEXEC_ENV] !== ca) reexec = !trustCaBundle(ca)
  const inputs: Record<string, string> = {}
  for (const i of INPUTS) {
    const v = values[inputEnvName(i.name)]
    if (v !== undefined) inputs[i.name] = v
  }
  return { names: Object.keys(values), inputs, reexec }
}
