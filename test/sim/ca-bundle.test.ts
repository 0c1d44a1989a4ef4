// `sim up`'s env.sh and .env add the world's CA to the NODE_EXTRA_CA_CERTS bundle the machine
// already has (a TLS-inspecting proxy's CA, say) instead of replacing it (sim/ca-bundle.ts,
// docs/security.md "The simulator's folder"): a Node program started after `. DIR/env.sh` trusts
// both, and `sim down` removes the combined bundle with the rest of the world's files.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { execFile, execFileSync } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseEnv, promisify } from 'node:util'
import forge from 'node-forge'
import { CA_BUNDLE_FILE, writeWorldCaBundle } from '../../sim/ca-bundle.js'
import { writeEnvFiles } from '../../sim/commands.js'
import { createWorldTls } from '../../sim/tls.js'
import { startWorld, type World } from '../../sim/world.js'
import { WORLD_LAYOUT } from '../../sim/world-dir.js'

const exec = promisify(execFile)
const work = mkdtempSync(path.join(tmpdir(), 'sim-ca-bundle-'))
/** A CA of another name than the worlds', as a TLS-inspecting proxy's would be. */
function proxyCaPem(): string {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const cert = forge.pki.createCertificate()
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString())
  cert.serialNumber = '01'
  cert.validity.notBefore = new Date(Date.now() - 60_000)
  cert.validity.notAfter = new Date(Date.now() + 86_400_000)
  const name = [{ name: 'commonName', value: 'Example TLS inspection proxy CA' }]
  cert.setSubject(name)
  cert.setIssuer(name)
  cert.setExtensions([{ name: 'basicConstraints', cA: true, critical: true }])
  cert.sign(
    forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    forge.md.sha256.create()
  )
  return forge.pki.certificateToPem(cert).trim()
}

const proxyCa = proxyCaPem()
/** The machine's own bundle: the proxy's CA after a comment. */
const machineBundle = path.join(work, 'corporate-ca.pem')
writeFileSync(machineBundle, `# the proxy's CA\n${proxyCa}\n`)

let world: World
let n = 0
/** A new world folder with env.sh and .env written for a machine environment. */
function envFilesFor(machine: NodeJS.ProcessEnv): {
  dir: string
  shell: string
  dotenv: Record<string, string>
} {
  const dir = path.join(work, `world-${++n}`)
  mkdirSync(dir, { mode: 0o700 })
  writeFileSync(path.join(dir, 'ca.pem'), readFileSync(world.caPath))
  const fake = { ...world, caPath: path.join(dir, 'ca.pem') } as World
  const envFile = writeEnvFiles(dir, fake, machine)
  const shell = execFileSync(
    'sh',
    ['-c', `. '${path.join(dir, 'env.sh')}' && printf %s "$NODE_EXTRA_CA_CERTS"`],
    {
      env: { PATH: process.env.PATH, ...machine }
    }
  ).toString()
  return { dir, shell, dotenv: parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string> }
}

/** What a Node program with NODE_EXTRA_CA_CERTS=`bundle` gets from the world: a status or a TLS error. */
async function reach(bundle: string): Promise<{ said: string; stderr: string }> {
  const r = await exec(
    process.execPath,
    [
      '-e',
      'fetch(process.argv[1]).then(r => console.log(r.status), e => console.log(e.cause?.code ?? e.message))',
      world.azure.armEndpoint
    ],
    { env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: bundle } }
  )
  return { said: r.stdout.trim(), stderr: r.stderr }
}

beforeAll(async () => {
  world = await startWorld({ dir: path.join(work, 'running'), helmCommand: ['false'] })
}, 60_000)

afterAll(async () => {
  await world?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("env.sh and .env keep the machine's NODE_EXTRA_CA_CERTS", () => {
  it('name a bundle in the world folder holding the machine’s certificates, then the world’s CA', () => {
    const { dir, shell, dotenv } = envFilesFor({ NODE_EXTRA_CA_CERTS: machineBundle })
    const bundle = path.join(dir, CA_BUNDLE_FILE)
    expect(shell).toBe(bundle)
    expect(dotenv.NODE_EXTRA_CA_CERTS).toBe(bundle)
    const text = readFileSync(bundle, 'utf8')
    const worldCa = readFileSync(world.caPath, 'utf8').trim()
    expect(text.indexOf(proxyCa)).toBe(0)
    expect(text.indexOf(worldCa)).toBeGreaterThan(proxyCa.length)
    expect(text).not.toContain("# the proxy's CA") // certificates only
    expect(statSync(bundle).mode & 0o777).toBe(0o600)
    // The machine's file itself is left as it was.
    expect(readFileSync(machineBundle, 'utf8')).toBe(`# the proxy's CA\n${proxyCa}\n`)
  })

  it('a Node program started with the bundle reaches the world over TLS', async () => {
    const { dir } = envFilesFor({ NODE_EXTRA_CA_CERTS: machineBundle })
    expect(await reach(path.join(dir, CA_BUNDLE_FILE))).toEqual({
      said: expect.stringMatching(/^\d{3}$/),
      stderr: ''
    })
  })

  it('leaves out an earlier world’s CA (same name, its key gone) and a certificate Node cannot read', async () => {
    const earlier = path.join(work, 'earlier-bundle.pem')
    const broken = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----'
    writeFileSync(earlier, [createWorldTls().caPem.trim(), broken, proxyCa, proxyCa].join('\n') + '\n')
    const { dir, shell } = envFilesFor({ NODE_EXTRA_CA_CERTS: earlier })
    expect(shell).toBe(path.join(dir, CA_BUNDLE_FILE))
    const text = readFileSync(shell, 'utf8')
    expect(text).toBe(`${proxyCa}\n${readFileSync(world.caPath, 'utf8').trim()}\n`)
    expect(await reach(shell)).toEqual({ said: expect.stringMatching(/^\d{3}$/), stderr: '' })
    // A shell that sourced another world's env.sh: this world's CA alone, without a warning.
    const onlyWorld = path.join(work, 'only-world.pem')
    writeFileSync(onlyWorld, createWorldTls().caPem)
    const bundleFile = path.join(work, 'unused.pem')
    expect(writeWorldCaBundle({ existing: onlyWorld, worldCaFile: world.caPath, bundleFile })).toEqual({
      file: world.caPath
    })
    expect(existsSync(bundleFile)).toBe(false)
  })

  it('without NODE_EXTRA_CA_CERTS, name the world’s CA and write no bundle', () => {
    const { dir, shell, dotenv } = envFilesFor({})
    expect(shell).toBe(path.join(dir, 'ca.pem'))
    expect(dotenv.NODE_EXTRA_CA_CERTS).toBe(path.join(dir, 'ca.pem'))
    expect(existsSync(path.join(dir, CA_BUNDLE_FILE))).toBe(false)
  })

  it('a bundle that cannot be read, or holds no certificate, is named in a warning and the world’s CA used', () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      const missing = path.join(work, 'gone.pem')
      const a = envFilesFor({ NODE_EXTRA_CA_CERTS: missing })
      expect(a.shell).toBe(path.join(a.dir, 'ca.pem'))
      const empty = path.join(work, 'empty.pem')
      writeFileSync(empty, 'not a certificate\n')
      const b = envFilesFor({ NODE_EXTRA_CA_CERTS: empty })
      expect(b.dotenv.NODE_EXTRA_CA_CERTS).toBe(path.join(b.dir, 'ca.pem'))
      const said = stderr.mock.calls.map(c => String(c[0])).join('')
      expect(said).toContain(`NODE_EXTRA_CA_CERTS ${missing}: file not found`)
      expect(said).toContain(`NODE_EXTRA_CA_CERTS ${empty}: no PEM certificate in it`)
    } finally {
      stderr.mockRestore()
    }
  })

  it('sim down removes the bundle with the other files the world wrote', () => {
    expect(WORLD_LAYOUT.files).toContain(CA_BUNDLE_FILE)
  })
})
