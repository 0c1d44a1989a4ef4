// The identity of one run of the action (one job, one matrix leg): the Lease holder, the created-by tag
// and the pods' run label. Its form and how the post step checks it: docs/security.md#one-identity-per-job.
import { createHash, randomBytes } from 'node:crypto'

/** A new nonce: 12 hex digits, drawn once per main step. */
export function newRunNonce(): string {
  return randomBytes(6).toString('hex')
}

const NONCE_RE = /^[0-9a-f]{12}$/

/** The job-key part: short and readable when it can be (`gpu:h100,zone:1`), a hash otherwise. */
export function jobKeyPart(jobKey: string): string {
  const compact = jobKey
    .replace(/[\s"'{}[\]]/g, '')
    .replace(/[^A-Za-z0-9._:,=-]/g, '-')
    .slice(0, 200)
  return compact && compact.length <= 40
    ? compact
    : `key-${createHash('sha256').update(jobKey).digest('hex').slice(0, 12)}`
}

/** A runner value as one path segment of the identity (no `/`, no spaces, bounded). */
function segment(v: string): string {
  return v.replace(/[^A-Za-z0-9._:,=-]/g, '-').slice(0, 100) || '-'
}

/**
 * `<run id>-<attempt>/<job>[/<job-key>]/<nonce>` under Actions, `local/<nonce>` elsewhere (a CLI
 * run). Deterministic for a given environment, job-key and nonce.
 */
export function runIdentity(env: NodeJS.ProcessEnv, jobKey: string | undefined, nonce: string): string {
  const key = jobKey ? `/${jobKeyPart(jobKey)}` : ''
  if (!env.GITHUB_RUN_ID) return `local${key}/${nonce}`
  const run = `${segment(env.GITHUB_RUN_ID)}-${segment(env.GITHUB_RUN_ATTEMPT ?? '1')}`
  return `${run}/${segment(env.GITHUB_JOB ?? 'job')}${key}/${nonce}`
}

/** The nonce at the end of an identity runIdentity made; undefined for anything else. */
export function nonceOf(runId: string): string | undefined {
  const last = runId.slice(runId.lastIndexOf('/') + 1)
  return NONCE_RE.test(last) ? last : undefined
}
