// The CA bundle a world's env.sh and .env name in NODE_EXTRA_CA_CERTS (docs/security.md, "The
// simulator's folder"): the certificates of the bundle the machine already trusts that way (a
// TLS-inspecting proxy's CA, say), then the world's CA, so that sourcing env.sh adds the world
// rather than replacing what npm and other Node programs need to reach the internet.
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { FileInputError, readBoundedFile } from '../src/util/files.js'
import { WORLD_CA_NAME } from './tls.js'
import { writeNewFile } from './world-dir.js'

/** The combined bundle, in the world's folder. */
export const CA_BUNDLE_FILE = 'ca-bundle.pem'

/**
 * How much of the existing bundle is read: the CLI's `--inputs-file` reads the combined bundle with
 * its 1 MiB cap, which leaves room for the world's CA.
 */
const MAX_EXISTING_BYTES = 960 * 1024

/** The PEM certificates of a bundle's text; anything else in it (comments, keys) is left out. */
function certificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
}

/**
 * Whether a certificate of the machine's bundle is kept: one Node can parse (Node ignores the whole
 * bundle when one fails), and not an earlier world's CA — every world's CA has the same name, and
 * OpenSSL, given two, may pick the dead one and fail this world's certificate (its key is gone).
 */
function kept(pem: string): boolean {
  try {
    return new X509Certificate(pem).subject !== `CN=${WORLD_CA_NAME}`
  } catch {
    return false
  }
}

export interface WorldCaBundle {
  /** What NODE_EXTRA_CA_CERTS names for the world's programs: the combined bundle, or the world's CA. */
  file: string
  /** Why the machine's bundle was not kept (unreadable, no certificate in it); absent otherwise. */
  problem?: string
}

/**
 * The bundle for NODE_EXTRA_CA_CERTS: with `existing` (the variable's value before the world) set,
 * a new `bundleFile` (mode 0600, as the world's CA) holding its certificates followed by the
 * world's (`worldCaFile`); otherwise, or when that file cannot be read or holds no certificate but
 * earlier worlds' CAs, `worldCaFile` alone.
 */
export function writeWorldCaBundle(o: {
  existing: string | undefined
  worldCaFile: string
  bundleFile: string
}): WorldCaBundle {
  if (!o.existing) return { file: o.worldCaFile }
  let all: string[]
  try {
    all = certificates(readBoundedFile(o.existing, MAX_EXISTING_BYTES))
  } catch (e) {
    if (!(e instanceof FileInputError)) throw e
    return { file: o.worldCaFile, problem: `NODE_EXTRA_CA_CERTS ${o.existing}: ${e.reason}` }
  }
  if (!all.length)
    return { file: o.worldCaFile, problem: `NODE_EXTRA_CA_CERTS ${o.existing}: no PEM certificate in it` }
  // Only earlier worlds' CAs (a shell that sourced another world's env.sh): this world's CA alone.
  const theirs = [...new Set(all.filter(kept))]
  if (!theirs.length) return { file: o.worldCaFile }
  const ours = certificates(readFileSync(o.worldCaFile, 'utf8'))
  writeNewFile(o.bundleFile, [...theirs, ...ours].join('\n') + '\n')
  return { file: o.bundleFile }
}
