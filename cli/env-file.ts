// `--env-file FILE`: NAME=value lines (INPUT_<NAME> inputs and environment variables) loaded into
// this process before the command runs. Node reads NODE_EXTRA_CA_CERTS only at start-up, so a CA
// bundle named in the file is added to this process's default trusted CAs (tls.setDefaultCACertificates,
// Node 24); where that is missing, the caller re-runs the command with the variable set.
// The file is read only when it is a regular file of at most 1 MiB that no other user could have
// written (owned by the current user or root, not world-writable), and it may not set
// what makes Node or the dynamic loader run other code (NODE_OPTIONS, LD_PRELOAD, ...): the
// command and every process it starts would run it.
import { lstatSync } from 'node:fs'
import tls from 'node:tls'
import { parseEnv } from 'node:util'
import { INPUTS } from '../src/settings/input-definitions.js'
import { inputEnvName } from '../src/run/inputs.js'
import { FileInputError, readBoundedFile } from '../src/util/files.js'
import { UsageError } from './flags.js'

/** Set in a re-run so it does not re-run again. */
export const CA_REEXEC_ENV = 'AKS_RDMA_ACTION_CA_LOADED'

/**
 * Variables an env file may not set: each makes Node or the dynamic loader load code of its
 * choosing into this command and every process it starts.
 */
export const REFUSED_ENV = [
  'NODE_OPTIONS',
  'LD_PRELOAD',
  'LD_AUDIT',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES'
] as const

/** Why the file could have been written by someone else (undefined when it could not). */
function writableByOthers(file: string): string | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  let st: ReturnType<typeof lstatSync>
  try {
    st = lstatSync(file)
  } catch {
    return undefined // reported by the read
  }
  if (uid !== undefined && st.uid !== uid && st.uid !== 0)
    return `is owned by another user (uid ${st.uid}); it could set any variable of this command`
  if (st.mode & 0o002)
    return 'is writable by every user (chmod o-w it); it could set any variable of this command'
  return undefined
}

/** Reads the file's variables (throws UsageError when it cannot be read or may not be used). */
export function readEnvFile(file: string): Record<string, string> {
  let text: string
  try {
    text = readBoundedFile(file)
  } catch (e) {
    if (e instanceof FileInputError) throw new UsageError(`--env-file ${file}: ${e.reason}`)
    throw e
  }
  const foreign = writableByOthers(file)
  if (foreign) throw new UsageError(`--env-file ${file}: ${foreign}`)
  const values = parseEnv(text) as Record<string, string>
  const refused = REFUSED_ENV.filter(k => k in values)
  if (refused.length)
    throw new UsageError(
      `--env-file ${file}: sets ${refused.join(', ')}, which would load code into this command and every process it starts; ` +
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

export interface EnvFileResult {
  /** The names set from the file. */
  names: string[]
  /** The inputs the file gives (its INPUT_<NAME> lines), by input name. */
  inputs: Record<string, string>
  /** The file named a CA bundle this Node could not load in-process: re-run the command. */
  reexec: boolean
}

/** Loads the file into `env` (the file wins over the environment) and trusts its CA bundle. */
export function loadEnvFile(file: string, env: NodeJS.ProcessEnv = process.env): EnvFileResult {
  const values = readEnvFile(file)
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
