// The `kubeconfig` input read as kubectl reads it, narrowed to one context and written as a 0600
// copy; its credentials masked, its text never quoted (docs/existing-kubeconfig.md, docs/security.md).
import { randomBytes } from 'node:crypto'
import { chmodSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import { byteSize, FileInputError, readBoundedFile } from '../util/files.js'

/** 4 MiB: a kubeconfig of hundreds of clusters with their certificates is far smaller. */
export const KUBECONFIG_MAX_BYTES = 4 * 1024 * 1024

/** Where the kubeconfig comes from: files (a KUBECONFIG-style list) or its own text. */
export interface KubeconfigSource {
  files?: string[]
  text?: string
  /** The text was given base64-encoded (the input's value is then a secret too). */
  encoded?: boolean
  /** The context to use (default: the kubeconfig's current-context). */
  context?: string
}

type Entry = { name: string; [k: string]: unknown }
type Named = Record<string, unknown> & { name?: unknown }

/** A kubeconfig as YAML holds it (only the parts read here are typed). */
export interface KubeconfigDoc {
  apiVersion?: string
  kind?: string
  clusters?: Entry[]
  users?: Entry[]
  contexts?: Entry[]
  'current-context'?: string
  [k: string]: unknown
}

/** The kubeconfig narrowed to one context, with what a log may say of it. */
export interface ResolvedKubeconfig {
  doc: KubeconfigDoc
  context: string
  cluster: string
  user: string
  server: string
  /** Every credential value in it (to mask). */
  secrets: string[]
}

/** A kubeconfig that cannot be used: the message names the input and the fix, never its text. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KubeconfigError'
  }
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** A kubeconfig's text, when `value` is one base64-encoded (`base64 -w0 ~/.kube/config`). */
function decodedKubeconfig(value: string): string | undefined {
  const v = value.trim()
  if (v.length < 16 || v.length % 4 !== 0 || !BASE64.test(v)) return undefined
  const text = Buffer.from(v, 'base64').toString('utf8')
  return /^\s*(\{|apiVersion\s*:|kind\s*:|clusters\s*:|current-context\s*:)/m.test(text) ? text : undefined
}

/**
 * Whether a part of the input may be a credential rather than a path (so a message never quotes
 * it): a long run of base64 characters with upper and lower case letters and digits mixed, as an
 * encoded key or token is, which file names hardly ever are.
 */
export function mayBeCredential(part: string): boolean {
  return part
    .split('/')
    .some(
      seg =>
        seg.length >= 24 &&
        /^[A-Za-z0-9+=_-]+$/.test(seg) &&
        /[a-z]/.test(seg) &&
        /[A-Z]/.test(seg) &&
        /\d/.test(seg)
    )
}

/**
 * The input's value: the kubeconfig's own text (a line break, `{` or `apiVersion:`), that text
 * base64-encoded on one line, or files.
 */
export function kubeconfigSource(value: string, context?: string): KubeconfigSource {
  const text = /[\r\n]/.test(value) || /^\s*(\{|apiVersion\s*:)/.test(value)
  const decoded = text ? undefined : decodedKubeconfig(value)
  return {
    ...(text
      ? { text: value }
      : decoded !== undefined
        ? { text: decoded, encoded: true }
        : { files: value.split(path.delimiter).filter(Boolean) }),
    ...(context ? { context } : {})
  }
}

/** A file of the list as messages show it: its path, unless it may be a credential. */
function shownFile(f: string): string {
  return mayBeCredential(f) ? `(hidden: ${f.length} characters that look like encoded data, not a path)` : f
}

/** What the input names, for messages: the files, or `(hidden)` for a kubeconfig given as text. */
export function describeSource(src: KubeconfigSource): string {
  return src.text !== undefined ? '(hidden)' : src.files!.map(shownFile).join(path.delimiter)
}

const USER_SECRETS = ['token', 'client-key-data', 'client-certificate-data', 'password']

/**
 * The values of an exec plugin entry that may carry a credential: its arguments (a `--flag=value`
 * argument's value; a bare one of 16 characters or more that is not a flag) and its variables'
 * values. Short words and flags (`-e`, `get-token`, `--login`) are left: masking them would blank them in
 * every log line.
 */
function execSecrets(exec: unknown): string[] {
  const e = (exec ?? {}) as { args?: unknown; env?: unknown }
  const out: string[] = []
  for (const a of Array.isArray(e.args) ? e.args : []) {
    if (typeof a !== 'string') continue
    const eq = a.startsWith('-') ? a.indexOf('=') : -1
    if (eq > 0) out.push(a.slice(eq + 1))
    else if (!a.startsWith('-') && a.length >= 16) out.push(a)
  }
  for (const v of Array.isArray(e.env) ? e.env : []) {
    const value = (v as { value?: unknown } | null)?.value
    if (typeof value === 'string') out.push(value)
  }
  return out.filter(v => v.trim().length >= 4)
}
const AUTH_PROVIDER_SECRETS = ['access-token', 'refresh-token', 'id-token', 'client-secret']

/**
 * Every credential-bearing value of a kubeconfig's users (tokens, keys, certificates, passwords,
 * the auth provider's tokens, the exec plugin's arguments and variables).
 */
export function kubeconfigSecrets(doc: KubeconfigDoc): string[] {
  const out: string[] = []
  const add = (v: unknown): void => {
    if (typeof v === 'string' && v) out.push(v)
  }
  for (const u of doc.users ?? []) {
    const user = (u.user ?? {}) as Record<string, unknown>
    for (const k of USER_SECRETS) add(user[k])
    const config = (user['auth-provider'] as { config?: Record<string, unknown> } | undefined)?.config
    for (const k of AUTH_PROVIDER_SECRETS) add(config?.[k])
    for (const v of execSecrets(user.exec)) add(v)
  }
  return out
}

function parseDoc(text: string, where: string): KubeconfigDoc {
  let doc: unknown
  try {
    doc = parse(text)
  } catch {
    throw new KubeconfigError(`kubeconfig ${where}: not valid YAML`)
  }
  if (doc === null || doc === undefined) return {}
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new KubeconfigError(
      `kubeconfig ${where}: not a kubeconfig (expected a mapping with clusters, users, contexts)`
    )
  // An empty section (null) is none, as client-go reads it; any other non-list is refused here,
  // before its paths are resolved or it is merged.
  for (const key of ['clusters', 'users', 'contexts'] as const) {
    const list = (doc as KubeconfigDoc)[key]
    if (list !== undefined && list !== null && !Array.isArray(list))
      throw new KubeconfigError(`kubeconfig ${where}: ${key} is not a list`)
    // client-go decodes each list into a map and refuses a file naming one entry twice
    // (api/v1 conversion: `duplicate name "…" in list`): kubectl cannot load it either.
    const seen = new Set<string>()
    for (const e of (list ?? []) as Named[]) {
      const name = typeof e?.name === 'string' ? e.name : ''
      if (seen.has(name))
        throw new KubeconfigError(
          `kubeconfig ${where}: ${key} names "${name}" twice (kubectl refuses the file too); keep one entry of each name`
        )
      seen.add(name)
    }
  }
  return doc as KubeconfigDoc
}

/** Makes `o[key]`, a relative file path, absolute against `base` (empty and absolute paths stay). */
function absolute(o: Record<string, unknown> | undefined, key: string, base: string): void {
  const p = o?.[key]
  if (o && typeof p === 'string' && p && !path.isAbsolute(p)) o[key] = path.join(base, p)
}

/** Makes a file's relative paths absolute against its folder, as client-go's ResolveLocalPaths does. */
function resolvePaths(doc: KubeconfigDoc, file: string): void {
  const base = path.dirname(path.resolve(file))
  for (const c of doc.clusters ?? [])
    absolute(c?.cluster as Record<string, unknown> | undefined, 'certificate-authority', base)
  for (const u of doc.users ?? []) {
    const user = u?.user as Record<string, unknown> | undefined
    for (const k of ['client-certificate', 'client-key', 'tokenFile']) absolute(user, k, base)
    const exec = user?.exec as Record<string, unknown> | undefined
    // Only a command with a path separator is a path; a bare name is looked up on PATH.
    if (typeof exec?.command === 'string' && exec.command.includes(path.sep)) absolute(exec, 'command', base)
  }
}

/** Merges documents as kubectl does: the first to name an entry or a current-context wins. */
function merge(docs: KubeconfigDoc[]): KubeconfigDoc {
  const out: KubeconfigDoc = { clusters: [], users: [], contexts: [] }
  for (const doc of docs) {
    for (const key of ['clusters', 'users', 'contexts'] as const) {
      for (const e of (doc[key] ?? []) as Named[])
        if (typeof e?.name === 'string' && !out[key]!.some(x => x.name === e.name)) out[key]!.push(e as Entry)
    }
    out['current-context'] ??= doc['current-context'] || undefined
  }
  return out
}

/** The documents of a source, their paths resolved. */
function readDocs(src: KubeconfigSource): KubeconfigDoc[] {
  if (src.text !== undefined) return [parseDoc(src.text, '(hidden)')]
  const files = src.files ?? []
  // Read bounded: a FIFO or a device is refused at once, a huge file before it is read. A missing
  // file of a list is skipped, as kubectl skips it.
  const read: Array<{ file: string; text: string }> = []
  for (const f of files) {
    try {
      read.push({ file: f, text: readBoundedFile(f, KUBECONFIG_MAX_BYTES) })
    } catch (e) {
      if (!(e instanceof FileInputError)) throw e
      if (e.reason === 'file not found') continue
      throw new KubeconfigError(
        `kubeconfig ${shownFile(f)}: ${e.reason} (a kubeconfig file: a regular file of at most ${byteSize(KUBECONFIG_MAX_BYTES)})`
      )
    }
  }
  if (!read.length)
    throw new KubeconfigError(
      `kubeconfig ${describeSource(src) || '""'}: ${files.length > 1 ? 'none of these files exists' : 'file not found'} (give the path of a kubeconfig, e.g. the KUBECONFIG azure/aks-set-context exports, or the kubeconfig itself)`
    )
  return read.map(({ file, text }) => {
    const doc = parseDoc(text, shownFile(file))
    resolvePaths(doc, file)
    return doc
  })
}

const names = (list: Entry[] | undefined): string => (list ?? []).map(e => e.name).join(', ') || 'none'

/**
 * Reads the kubeconfig and narrows it to the context to use; throws a KubeconfigError naming what
 * is missing (the file, the context with the ones there are, the context's cluster or user).
 */
export function resolveKubeconfig(src: KubeconfigSource): ResolvedKubeconfig {
  const where = describeSource(src)
  const merged = merge(readDocs(src))
  const context = src.context ?? merged['current-context']
  if (!context)
    throw new KubeconfigError(
      `kube-context: kubeconfig ${where} has no current-context; name one of its contexts (${names(merged.contexts)})`
    )
  const ctx = merged.contexts!.find(c => c.name === context)
  if (!ctx)
    throw new KubeconfigError(
      `kube-context "${context}": no such context in kubeconfig ${where}; it has ${names(merged.contexts)}`
    )
  const spec = (ctx.context ?? {}) as { cluster?: string; user?: string }
  const cluster = merged.clusters!.find(c => c.name === spec.cluster)
  if (!cluster)
    throw new KubeconfigError(
      `kubeconfig ${where}: context "${context}" names cluster "${spec.cluster ?? ''}", which it does not define`
    )
  const server = (cluster.cluster as { server?: unknown } | undefined)?.server
  if (typeof server !== 'string' || !server)
    throw new KubeconfigError(`kubeconfig ${where}: cluster "${cluster.name}" has no server`)
  // A context without a user is valid (anonymous); one naming a user that is not there is not.
  const user = spec.user ? merged.users!.find(u => u.name === spec.user) : undefined
  if (spec.user && !user)
    throw new KubeconfigError(
      `kubeconfig ${where}: context "${context}" names user "${spec.user}", which it does not define`
    )
  const doc: KubeconfigDoc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [cluster],
    users: user ? [user] : [],
    contexts: [ctx],
    'current-context': context
  }
  return {
    doc,
    context,
    cluster: cluster.name,
    user: user?.name ?? '',
    server,
    secrets: kubeconfigSecrets(doc)
  }
}

/** Writes the one-context kubeconfig (0600) through a temporary file into `dir`; returns its path. */
export function writeGivenKubeconfig(resolved: ResolvedKubeconfig, dir: string): string {
  const file = path.join(
    dir,
    `kubeconfig-${resolved.context.replace(/[^a-zA-Z0-9-]/g, '-').slice(0, 40)}-${randomBytes(4).toString('hex')}`
  )
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  writeFileSync(tmp, stringify(resolved.doc), { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
  return file
}
