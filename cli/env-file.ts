// `--env-file FILE`: NAME=value lines (INPUT_<NAME> inputs and environment variables) loaded into
// this process before the command runs. Node reads NODE_EXTRA_CA_CERTS only at start-up, so a CA
// bundle named in the file is added to this process's default trusted CAs (tls.setDefaultCACertificates,
// Node 24); where that is missing, the caller re-runs the command with the variable set.
import { readFileSync } from 'node:fs'
import tls from 'node:tls'
import { parseEnv } from 'node:util'
import { INPUTS } from '../src/settings/input-definitions.js'
import { inputEnvName } from '../src/run/inputs.js'
import { UsageError } from './flags.js'

/** Set in a re-run so it does not re-run again. */
export const CA_REEXEC_ENV = 'AKS_RDMA_ACTION_CA_LOADED'

/** Reads the file's variables (throws UsageError when it cannot be read). */
export function readEnvFile(file: string): Record<string, string> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new UsageError(`--env-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
  return parseEnv(text) as Record<string, string>
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
    certs = pemCertificates(readFileSync(file, 'utf8'))
  } catch (e) {
    throw new UsageError(
      `NODE_EXTRA_CA_CERTS ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`
    )
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
