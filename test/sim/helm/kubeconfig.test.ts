// The helm stand-in's kubeconfig reader against client-go's rules: which file and context it takes,
// paths relative to the kubeconfig's folder, the credential kinds (token, token file, basic, client
// certificate), and the exec plugin: its environment (the kubeconfig's env entries and
// KUBERNETES_EXEC_INFO), the credential kept until its expirationTimestamp, and client-go's
// errors for a failing plugin or one answering another API version.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { stringify } from 'yaml'
import { StandinKubeConfig } from '../../../sim/helm/kubeconfig.js'

const API = 'client.authentication.k8s.io/v1'

const newDir = () => mkdtempSync(path.join(tmpdir(), 'standin-kubeconfig-'))

/** A kubeconfig in `dir` with two clusters and contexts and one user. */
function kubeconfig(user: Record<string, unknown>, dir = newDir()): string {
  const file = path.join(dir, 'config')
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'sim',
      clusters: [
        {
          name: 'c',
          cluster: {
            server: 'https://127.0.0.1:6443',
            'certificate-authority-data': Buffer.from('CA PEM').toString('base64')
          }
        },
        { name: 'other', cluster: { server: 'https://10.0.0.1', 'insecure-skip-tls-verify': true } }
      ],
      contexts: [
        { name: 'sim', context: { cluster: 'c', user: 'u' } },
        { name: 'ns', context: { cluster: 'other', user: 'u', namespace: 'team' } }
      ],
      users: [{ name: 'u', user }]
    })
  )
  return file
}

/** An exec plugin (a node script) that counts its runs in `counter` and answers `credential`. */
function plugin(dir: string, credential: unknown, exitCode = 0): Record<string, unknown> {
  const counter = path.join(dir, 'runs')
  writeFileSync(counter, '')
  const script = [
    "const fs = require('fs');",
    `fs.appendFileSync(${JSON.stringify(counter)}, JSON.stringify({ info: process.env.KUBERNETES_EXEC_INFO, extra: process.env.EXTRA }) + '\\n');`,
    `process.stdout.write(${JSON.stringify(JSON.stringify(credential))});`,
    `process.exit(${exitCode});`
  ].join(' ')
  return {
    apiVersion: API,
    command: process.execPath,
    args: ['-e', script],
    env: [{ name: 'EXTRA', value: 'x' }]
  }
}

const runsOf = (dir: string) =>
  readFileSync(path.join(dir, 'runs'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l) as { info: string; extra: string })

const credential = (status: Record<string, unknown>, apiVersion = API) => ({
  apiVersion,
  kind: 'ExecCredential',
  status
})

describe('the helm stand-in reads a kubeconfig as client-go does', () => {
  it('takes the current context, or the one named, with its namespace', () => {
    const file = kubeconfig({ token: 't' })
    const kc = StandinKubeConfig.load({ KUBECONFIG: `${file}${path.delimiter}/nonexistent` })
    expect([kc.server.href, kc.namespace]).toEqual(['https://127.0.0.1:6443/', 'default'])
    const ns = StandinKubeConfig.load({}, file, 'ns')
    expect([ns.server.href, ns.namespace]).toEqual(['https://10.0.0.1/', 'team'])
    expect(() => StandinKubeConfig.load({}, file, 'missing')).toThrow('context "missing" does not exist')
    expect(() => StandinKubeConfig.load({ HOME: '/nonexistent' })).toThrow(
      'Kubernetes cluster unreachable: invalid configuration: no configuration has been provided'
    )
  })

  it('applies the cluster CA, insecure-skip-tls-verify and each kind of static credential', async () => {
    const bearer = await StandinKubeConfig.load({}, kubeconfig({ token: 'abc' })).connection()
    expect(bearer).toMatchObject({ rejectUnauthorized: true, headers: { Authorization: 'Bearer abc' } })
    expect(bearer.ca?.toString()).toBe('CA PEM')
    const insecure = await StandinKubeConfig.load({}, kubeconfig({ token: 'abc' }), 'ns').connection()
    expect(insecure.rejectUnauthorized).toBe(false)

    // A token file and client certificate files, relative to the kubeconfig's folder.
    const file = kubeconfig({ tokenFile: 'token', 'client-certificate': 'crt.pem', 'client-key': 'key.pem' })
    const dir = path.dirname(file)
    writeFileSync(path.join(dir, 'token'), 'from-file\n')
    writeFileSync(path.join(dir, 'crt.pem'), 'CERT')
    writeFileSync(path.join(dir, 'key.pem'), 'KEY')
    const fromFiles = await StandinKubeConfig.load({}, file).connection()
    expect(fromFiles.headers.Authorization).toBe('Bearer from-file')
    expect([fromFiles.cert?.toString(), fromFiles.key?.toString()]).toEqual(['CERT', 'KEY'])

    const basic = await StandinKubeConfig.load({}, kubeconfig({ username: 'a', password: 'b' })).connection()
    expect(basic.headers.Authorization).toBe(`Basic ${Buffer.from('a:b').toString('base64')}`)
  })

  it('runs an exec plugin once while its credential is unexpired, with its env and KUBERNETES_EXEC_INFO', async () => {
    const dir = newDir()
    const later = new Date(Date.now() + 3_600_000).toISOString()
    const file = kubeconfig(
      { exec: plugin(dir, credential({ token: 'exec-token', expirationTimestamp: later })) },
      dir
    )
    const kc = StandinKubeConfig.load({}, file)
    expect((await kc.connection()).headers.Authorization).toBe('Bearer exec-token')
    expect((await kc.connection()).headers.Authorization).toBe('Bearer exec-token')
    const runs = runsOf(dir)
    expect(runs).toHaveLength(1)
    expect(runs[0].extra).toBe('x')
    expect(JSON.parse(runs[0].info)).toEqual({
      kind: 'ExecCredential',
      apiVersion: API,
      spec: { interactive: false }
    })
  })

  it('runs it again once the credential has expired', async () => {
    const dir = newDir()
    const past = new Date(Date.now() - 1000).toISOString()
    const kc = StandinKubeConfig.load(
      {},
      kubeconfig({ exec: plugin(dir, credential({ token: 't', expirationTimestamp: past })) })
    )
    await kc.connection()
    await kc.connection()
    expect(runsOf(dir)).toHaveLength(2)
  })

  it('fails as client-go does on a failing plugin, another API version, or no credential', async () => {
    const dir = newDir()
    const failing = StandinKubeConfig.load({}, kubeconfig({ exec: plugin(dir, {}, 1) }))
    await expect(failing.connection()).rejects.toThrow(
      `getting credentials: exec: executable ${process.execPath} failed with exit code 1`
    )
    const beta = StandinKubeConfig.load(
      {},
      kubeconfig({ exec: plugin(dir, credential({ token: 't' }, 'client.authentication.k8s.io/v1beta1')) })
    )
    await expect(beta.connection()).rejects.toThrow(
      `exec plugin is configured to use API version ${API}, plugin returned version client.authentication.k8s.io/v1beta1`
    )
    const empty = StandinKubeConfig.load({}, kubeconfig({ exec: plugin(dir, credential({})) }))
    await expect(empty.connection()).rejects.toThrow("exec plugin didn't return a token or cert/key pair")
    const noStatus = StandinKubeConfig.load({}, kubeconfig({ exec: plugin(dir, { apiVersion: API }) }))
    await expect(noStatus.connection()).rejects.toThrow("exec plugin didn't return a status field")
    const certOnly = StandinKubeConfig.load(
      {},
      kubeconfig({ exec: plugin(dir, credential({ clientCertificateData: 'CERT' })) })
    )
    await expect(certOnly.connection()).rejects.toThrow('returned only certificate or key, not both')
    const alpha = StandinKubeConfig.load(
      {},
      kubeconfig({ exec: { ...plugin(dir, {}), apiVersion: 'client.authentication.k8s.io/v1alpha1' } })
    )
    await expect(alpha.connection()).rejects.toThrow('exec plugin: invalid apiVersion')
  })
})
