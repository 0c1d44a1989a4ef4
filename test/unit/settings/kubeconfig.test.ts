// The kubeconfig input read as kubectl reads it (client-go's loading rules): a file, a KUBECONFIG
// list (missing files skipped, the first file to name an entry or a current-context wins, relative
// paths resolved against the file that holds them) or the kubeconfig's own text; narrowed to one
// context, written as a one-context 0600 copy; every credential in it returned for masking; every
// refusal names the input and what is there, never the kubeconfig's text nor a value that may be a
// credential; files read bounded (a FIFO, a huge file); a base64 kubeconfig decoded. Then the
// settings: verify and drift with a kubeconfig need no Azure input at all, apply still does,
// problems exit 2.
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import {
  describeSource,
  KUBECONFIG_MAX_BYTES,
  KubeconfigError,
  kubeconfigSecrets,
  kubeconfigSource,
  mayBeCredential,
  resolveKubeconfig,
  writeGivenKubeconfig
} from '../../../src/settings/kubeconfig.js'
import { InputError, readSettings } from '../../../src/settings/input-helper.js'
import { usesAzure } from '../../../src/settings/settings.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const dir = mkdtempSync(path.join(tmpdir(), 'given-kubeconfig-'))

function kubeconfig(o: {
  contexts: Array<[name: string, cluster: string, user?: string]>
  clusters?: Array<[name: string, server: string, ca?: string]>
  users?: Array<[name: string, user: Record<string, unknown>]>
  current?: string
}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: (o.clusters ?? []).map(([name, server, ca]) => ({
      name,
      cluster: { server, ...(ca ? { 'certificate-authority': ca } : {}) }
    })),
    users: (o.users ?? []).map(([name, user]) => ({ name, user })),
    contexts: o.contexts.map(([name, cluster, user]) => ({
      name,
      context: { cluster, ...(user ? { user } : {}) }
    })),
    ...(o.current ? { 'current-context': o.current } : {})
  }
}

function file(name: string, doc: unknown): string {
  const f = path.join(dir, name)
  mkdirSync(path.dirname(f), { recursive: true })
  writeFileSync(f, typeof doc === 'string' ? doc : stringify(doc))
  return f
}

const TOKEN = 'kube-token-0123456789abcdef'
const PROD = kubeconfig({
  clusters: [['prod', 'https://prod.example:443', 'ca/prod.pem']],
  users: [
    ['prod-admin', { token: TOKEN }],
    ['aad', { exec: { command: './bin/kubelogin', args: ['get-token'] } }]
  ],
  contexts: [
    ['prod', 'prod', 'prod-admin'],
    ['prod-aad', 'prod', 'aad']
  ],
  current: 'prod'
})

const message = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    if (e instanceof KubeconfigError) return e.message
    throw e
  }
  throw new Error('expected a KubeconfigError')
}

describe('reading the kubeconfig input', () => {
  it('a file: its current-context, relative paths made absolute, one context kept, the token to mask', () => {
    const f = file('a/config', PROD)
    const r = resolveKubeconfig(kubeconfigSource(f))
    expect(r).toMatchObject({
      context: 'prod',
      cluster: 'prod',
      user: 'prod-admin',
      server: 'https://prod.example:443'
    })
    expect(r.secrets).toEqual([TOKEN])
    expect(r.doc).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'prod',
          cluster: {
            server: 'https://prod.example:443',
            'certificate-authority': path.join(dir, 'a/ca/prod.pem')
          }
        }
      ],
      users: [{ name: 'prod-admin', user: { token: TOKEN } }],
      contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'prod-admin' } }],
      'current-context': 'prod'
    })
    // kube-context picks another; an exec command with a path resolves too, a bare name stays.
    const aad = resolveKubeconfig(kubeconfigSource(f, 'prod-aad'))
    expect((aad.doc.users![0].user as any).exec.command).toBe(path.join(dir, 'a/bin/kubelogin'))
    expect(aad.secrets).toEqual([])
  })

  it('a KUBECONFIG list: missing files skipped, the first to name an entry or a current-context wins', () => {
    const first = file(
      'list/first',
      kubeconfig({
        clusters: [['shared', 'https://first.example']],
        users: [['u', { token: 'first-token' }]],
        contexts: [['ctx', 'shared', 'u']]
      })
    )
    const second = file(
      'list/second',
      kubeconfig({
        clusters: [
          ['shared', 'https://second.example'],
          ['other', 'https://other.example']
        ],
        users: [['u', { token: 'second-token' }]],
        contexts: [
          ['ctx', 'other', 'u'],
          ['ctx2', 'other', 'u']
        ],
        current: 'ctx'
      })
    )
    const list = [path.join(dir, 'list/missing'), first, second].join(path.delimiter)
    const r = resolveKubeconfig(kubeconfigSource(list))
    // current-context from the second file (the first sets none); `ctx` and `u` from the first.
    expect(r).toMatchObject({ context: 'ctx', cluster: 'shared', server: 'https://first.example' })
    expect(r.secrets).toEqual(['first-token'])
    expect(resolveKubeconfig(kubeconfigSource(list, 'ctx2')).server).toBe('https://other.example')
  })

  it('the kubeconfig itself (a secret): read as text, never echoed in a message', () => {
    const text = stringify(PROD)
    const src = kubeconfigSource(text)
    expect(src).toEqual({ text })
    expect(resolveKubeconfig(src).secrets).toEqual([TOKEN])
    expect(kubeconfigSource(JSON.stringify(PROD))).toEqual({ text: JSON.stringify(PROD) })
    const m = message(() => resolveKubeconfig({ text, context: 'staging' }))
    expect(m).toBe('kube-context "staging": no such context in kubeconfig (hidden); it has prod, prod-aad')
    expect(m).not.toContain(TOKEN)
    expect(message(() => resolveKubeconfig({ text: '{ not: [yaml' }))).toBe(
      'kubeconfig (hidden): not valid YAML'
    )
  })

  it('refusals name the input, the file and what is there', () => {
    expect(message(() => resolveKubeconfig(kubeconfigSource(path.join(dir, 'nope'))))).toMatch(
      /^kubeconfig .*nope: file not found \(give the path of a kubeconfig/
    )
    const noCurrent = file('no-current', { ...PROD, 'current-context': undefined })
    expect(message(() => resolveKubeconfig(kubeconfigSource(noCurrent)))).toBe(
      `kube-context: kubeconfig ${noCurrent} has no current-context; name one of its contexts (prod, prod-aad)`
    )
    const dangling = file('dangling', kubeconfig({ contexts: [['c', 'gone', 'u']], current: 'c' }))
    expect(message(() => resolveKubeconfig(kubeconfigSource(dangling)))).toBe(
      `kubeconfig ${dangling}: context "c" names cluster "gone", which it does not define`
    )
    const noUser = file(
      'no-user',
      kubeconfig({ clusters: [['k', 'https://k']], contexts: [['c', 'k', 'who']], current: 'c' })
    )
    expect(message(() => resolveKubeconfig(kubeconfigSource(noUser)))).toBe(
      `kubeconfig ${noUser}: context "c" names user "who", which it does not define`
    )
    const list = file('list.yaml', '- a\n- b\n')
    expect(message(() => resolveKubeconfig(kubeconfigSource(list)))).toMatch(/not a kubeconfig/)
  })

  it('the copy: one context, mode 0600, usable as a kubeconfig', () => {
    const r = resolveKubeconfig(kubeconfigSource(file('copy/config', PROD), 'prod'))
    const out = mkdtempSync(path.join(tmpdir(), 'given-copy-'))
    const written = writeGivenKubeconfig(r, out)
    expect(path.dirname(written)).toBe(out)
    expect(statSync(written).mode & 0o777).toBe(0o600)
    expect(parse(readFileSync(written, 'utf8'))).toEqual(r.doc)
  })
})

describe('the kubeconfig input at its edges', () => {
  it('text when it has a line break or starts like a document; else files, empty parts dropped', () => {
    expect(kubeconfigSource('  apiVersion : v1')).toEqual({ text: '  apiVersion : v1' })
    expect(kubeconfigSource(' {"a":1}')).toEqual({ text: ' {"a":1}' })
    expect(kubeconfigSource('a\rb')).toEqual({ text: 'a\rb' })
    expect(kubeconfigSource('config\n')).toEqual({ text: 'config\n' })
    expect(kubeconfigSource('x {')).toEqual({ files: ['x {'] })
    expect(kubeconfigSource(`a${path.delimiter}${path.delimiter}b`, 'ctx')).toEqual({
      files: ['a', 'b'],
      context: 'ctx'
    })
    expect(kubeconfigSource('')).toEqual({ files: [] })
    expect(describeSource({ text: 'secret' })).toBe('(hidden)')
    expect(describeSource({ files: ['a', 'b'] })).toBe(`a${path.delimiter}b`)
  })

  it('every credential of every user to mask, and nothing that is not one', () => {
    expect(
      kubeconfigSecrets({
        users: [
          {
            name: 'a',
            user: {
              token: 't',
              'client-key-data': 'k',
              'client-certificate-data': 'c',
              password: 'p',
              username: 'not-secret'
            }
          },
          {
            name: 'b',
            user: {
              'auth-provider': {
                name: 'oidc',
                config: {
                  'access-token': 'at',
                  'refresh-token': 'rt',
                  'id-token': 'it',
                  'client-secret': 'cs',
                  'client-id': 'id'
                }
              }
            }
          },
          { name: 'c', user: { token: '', password: 7 } },
          { name: 'd' },
          {
            name: 'e',
            user: {
              exec: {
                command: 'kubelogin',
                args: [
                  'get-token',
                  '--login',
                  'spn',
                  '--client-secret=spn-secret-1',
                  'eyJhbGciOiJSUzI1NiJ9.payload',
                  '-e'
                ],
                env: [
                  { name: 'AAD_SERVICE_PRINCIPAL_CLIENT_SECRET', value: 'env-secret-2' },
                  { name: 'SHORT', value: 'ab' },
                  { name: 'NOVALUE' }
                ]
              }
            }
          }
        ]
      } as never)
    ).toEqual([
      't',
      'k',
      'c',
      'p',
      'at',
      'rt',
      'it',
      'cs',
      'spn-secret-1',
      'eyJhbGciOiJSUzI1NiJ9.payload',
      'env-secret-2'
    ])
    expect(kubeconfigSecrets({})).toEqual([])
  })

  it('an empty file has no current-context; a scalar or a non-list section is no kubeconfig', () => {
    const empty = file('edges/empty', '')
    expect(message(() => resolveKubeconfig(kubeconfigSource(empty)))).toBe(
      `kube-context: kubeconfig ${empty} has no current-context; name one of its contexts (none)`
    )
    const scalar = file('edges/scalar', 'hello\n')
    expect(message(() => resolveKubeconfig(kubeconfigSource(scalar)))).toBe(
      `kubeconfig ${scalar}: not a kubeconfig (expected a mapping with clusters, users, contexts)`
    )
    for (const key of ['clusters', 'users', 'contexts']) {
      const notList = file(`edges/not-list-${key}`, { [key]: { name: 'x' } })
      expect(message(() => resolveKubeconfig(kubeconfigSource(notList)))).toBe(
        `kubeconfig ${notList}: ${key} is not a list`
      )
    }
    expect(message(() => resolveKubeconfig({ text: 'users: 7\n' }))).toBe(
      'kubeconfig (hidden): users is not a list'
    )
    // An empty section is none, as kubectl reads it.
    const nulls = file('edges/null-sections', 'clusters:\nusers:\ncontexts:\n')
    expect(message(() => resolveKubeconfig(kubeconfigSource(nulls)))).toBe(
      `kube-context: kubeconfig ${nulls} has no current-context; name one of its contexts (none)`
    )
  })

  it('says which files are missing, and names a file it cannot read', () => {
    const a = path.join(dir, 'edges/none-a')
    const b = path.join(dir, 'edges/none-b')
    expect(message(() => resolveKubeconfig(kubeconfigSource(`${a}${path.delimiter}${b}`)))).toBe(
      `kubeconfig ${a}${path.delimiter}${b}: none of these files exists (give the path of a kubeconfig, e.g. the KUBECONFIG azure/aks-set-context exports, or the kubeconfig itself)`
    )
    expect(message(() => resolveKubeconfig({ files: [] }))).toMatch(/^kubeconfig "": file not found/)
    const folder = path.join(dir, 'edges/a-folder')
    mkdirSync(folder, { recursive: true })
    expect(message(() => resolveKubeconfig(kubeconfigSource(folder)))).toBe(
      `kubeconfig ${folder}: not a regular file (a directory) (a kubeconfig file: a regular file of at most 4 MiB)`
    )
  })

  it('reads files bounded: a FIFO refused at once, a file over 4 MiB before it is read', () => {
    const fifo = path.join(dir, 'edges/a-fifo')
    execFileSync('mkfifo', [fifo])
    // Among a list too: a FIFO is never skipped as missing, never waited on.
    expect(
      message(() =>
        resolveKubeconfig(kubeconfigSource(`${file('edges/before-fifo', PROD)}${path.delimiter}${fifo}`))
      )
    ).toBe(
      `kubeconfig ${fifo}: not a regular file (a FIFO) (a kubeconfig file: a regular file of at most 4 MiB)`
    )
    const big = path.join(dir, 'edges/huge')
    writeFileSync(big, '')
    truncateSync(big, KUBECONFIG_MAX_BYTES + 1)
    expect(message(() => resolveKubeconfig(kubeconfigSource(big)))).toBe(
      `kubeconfig ${big}: ${KUBECONFIG_MAX_BYTES + 1} bytes; at most 4 MiB (a kubeconfig file: a regular file of at most 4 MiB)`
    )
    expect(KUBECONFIG_MAX_BYTES).toBe(4 * 1024 * 1024)
  })

  it('a base64-encoded kubeconfig on one line is decoded, never taken for a file name or echoed', () => {
    const key = 'LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2Z0lCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND'
    const doc = kubeconfig({
      clusters: [['prod', 'https://prod.example:443']],
      users: [['admin', { 'client-key-data': key, token: TOKEN }]],
      contexts: [['prod', 'prod', 'admin']],
      current: 'prod'
    })
    const encoded = Buffer.from(stringify(doc)).toString('base64')
    const src = kubeconfigSource(encoded)
    expect(src).toEqual({ text: stringify(doc), encoded: true })
    const r = resolveKubeconfig(src)
    expect(r.server).toBe('https://prod.example:443')
    expect(r.secrets).toEqual(expect.arrayContaining([key, TOKEN]))
    // The settings mask the encoded value itself too (one line), and the credentials inside it.
    const settings = readSettings(reader({ mode: 'verify', kubeconfig: encoded }))
    expect(settings.secrets).toEqual(expect.arrayContaining([encoded, key, TOKEN]))
    // Base64 that is no kubeconfig (a key pasted by mistake): a file list, never quoted back.
    const notKubeconfig = problems({ mode: 'verify', kubeconfig: key })
    expect(notKubeconfig).toEqual([expect.stringContaining('kubeconfig (hidden: 80 characters')])
    expect(notKubeconfig.join('\n')).not.toContain(key.slice(0, 24))
    // A path stays a path in messages.
    expect(describeSource(kubeconfigSource('/home/runner/work/_temp/kubeconfig_1700000000000'))).toBe(
      '/home/runner/work/_temp/kubeconfig_1700000000000'
    )
    expect(mayBeCredential('/home/runner/work/_temp/kubeconfig_1700000000000')).toBe(false)
    expect(mayBeCredential(key)).toBe(true)
  })

  it('skips an entry without a name, and a context may have no user', () => {
    const f = file('edges/anonymous', {
      clusters: [
        { cluster: { server: 'https://nameless' } },
        { name: 'k', cluster: { server: 'https://k' } }
      ],
      contexts: [{ name: 'c', context: { cluster: 'k' } }],
      'current-context': 'c'
    })
    const r = resolveKubeconfig(kubeconfigSource(f))
    expect(r).toMatchObject({ context: 'c', cluster: 'k', user: '', server: 'https://k', secrets: [] })
    expect(r.doc.users).toEqual([])
    expect(r.doc.clusters).toEqual([{ name: 'k', cluster: { server: 'https://k' } }])
  })

  it('refuses a cluster without a server', () => {
    for (const cluster of [{}, { server: '' }, { server: 7 }]) {
      const f = file('edges/no-server', {
        clusters: [{ name: 'k', cluster }],
        contexts: [{ name: 'c', context: { cluster: 'k' } }],
        'current-context': 'c'
      })
      expect(message(() => resolveKubeconfig(kubeconfigSource(f)))).toBe(
        `kubeconfig ${f}: cluster "k" has no server`
      )
    }
  })

  it('makes each relative credential path absolute against its file; absolute and empty ones stay', () => {
    const f = file('edges/paths/config', {
      clusters: [{ name: 'k', cluster: { server: 'https://k', 'certificate-authority': '/etc/ca.pem' } }],
      users: [
        {
          name: 'u',
          user: {
            'client-certificate': 'c.pem',
            'client-key': 'keys/k.pem',
            tokenFile: '',
            exec: { command: 'kubelogin' }
          }
        }
      ],
      contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
      'current-context': 'c'
    })
    const r = resolveKubeconfig(kubeconfigSource(f))
    expect(r.doc.clusters![0].cluster).toEqual({
      server: 'https://k',
      'certificate-authority': '/etc/ca.pem'
    })
    expect(r.doc.users![0].user).toEqual({
      'client-certificate': path.join(dir, 'edges/paths/c.pem'),
      'client-key': path.join(dir, 'edges/paths/keys/k.pem'),
      tokenFile: '',
      exec: { command: 'kubelogin' }
    })
    // Given as text, a kubeconfig has no folder: its paths stay as written.
    const text = resolveKubeconfig({ text: readFileSync(f, 'utf8') })
    expect((text.doc.users![0].user as Record<string, unknown>)['client-key']).toBe('keys/k.pem')
  })

  it('names the copy after the context, made safe for a file name', () => {
    const r = resolveKubeconfig(kubeconfigSource(file('edges/copy', { ...PROD, 'current-context': 'prod' })))
    const out = mkdtempSync(path.join(tmpdir(), 'given-copy-'))
    const named = writeGivenKubeconfig({ ...r, context: `my/ctx:${'x'.repeat(60)}` }, out)
    expect(path.basename(named)).toMatch(new RegExp(`^kubeconfig-my-ctx-${'x'.repeat(33)}-[0-9a-f]{8}$`))
    expect(writeGivenKubeconfig(r, out)).not.toBe(writeGivenKubeconfig(r, out))
  })
})

/** The input problems of these inputs (none: []). */
function problems(inputs: Record<string, string>): string[] {
  try {
    readSettings(reader(inputs))
    return []
  } catch (e) {
    if (e instanceof InputError) return e.problems
    throw e
  }
}

describe('a KUBECONFIG list merged by client-go rules (tools/clientcmd/loader.go)', () => {
  // Each key set in the first file, the second, both or neither: the first file to set it wins
  // as a whole entry (mergo WithOverride over the files in reverse), an empty current-context
  // sets nothing, and a name twice in one file is refused as client-go's decoding refuses it.
  type Where = 'first' | 'second' | 'both' | 'neither'
  const WHERE: Where[] = ['first', 'second', 'both', 'neither']
  const doc = (
    which: 'first' | 'second',
    where: Record<'cluster' | 'user' | 'context' | 'current', Where>
  ) => {
    const has = (w: Where) => w === 'both' || w === which
    return {
      clusters: [
        ...(has(where.cluster) ? [{ name: 'k', cluster: { server: `https://${which}.k` } }] : []),
        { name: `own-${which}`, cluster: { server: `https://own-${which}` } }
      ],
      users: has(where.user) ? [{ name: 'u', user: { token: `${which}-token-0123456789` } }] : [],
      contexts: [
        ...(has(where.context)
          ? [{ name: 'c', context: { cluster: has(where.cluster) ? 'k' : `own-${which}`, user: 'u' } }]
          : []),
        { name: `ctx-${which}`, context: { cluster: `own-${which}` } }
      ],
      ...(has(where.current)
        ? { 'current-context': which === 'first' ? 'c' : 'ctx-second' }
        : { 'current-context': '' })
    }
  }
  const winner = (w: Where): 'first' | 'second' | null =>
    w === 'first' || w === 'both' ? 'first' : w === 'second' ? 'second' : null

  it.each(WHERE.flatMap(cluster => WHERE.map(current => [cluster, current] as const)))(
    'cluster k set in %s, current-context in %s',
    (cluster, current) => {
      const where = { cluster, user: 'both' as Where, context: 'both' as Where, current }
      const list = [
        file(`merge/${cluster}-${current}/a`, doc('first', where)),
        file(`merge/${cluster}-${current}/b`, doc('second', where))
      ].join(path.delimiter)
      const ctx = winner(current) === 'first' ? 'c' : winner(current) === 'second' ? 'ctx-second' : null
      if (!ctx) {
        expect(message(() => resolveKubeconfig(kubeconfigSource(list)))).toContain('no current-context')
        return
      }
      const r = resolveKubeconfig(kubeconfigSource(list))
      expect(r.context).toBe(ctx)
      if (ctx === 'ctx-second') expect(r.server).toBe('https://own-second')
      // Context c comes from the first file: its cluster is k where the first file names k.
      else
        expect(r.server).toBe(
          cluster === 'first' || cluster === 'both' ? 'https://first.k' : 'https://own-first'
        )
      // The user u of the first file wins as a whole: only its token is kept and masked.
      if (ctx === 'c') expect(r.secrets).toEqual(['first-token-0123456789'])
    }
  )

  it('a context named in the second file only still resolves against the first file’s cluster', () => {
    const a = file('merge/cross/a', {
      clusters: [{ name: 'k', cluster: { server: 'https://a.k' } }],
      'current-context': 'late'
    })
    const b = file('merge/cross/b', {
      clusters: [{ name: 'k', cluster: { server: 'https://b.k' } }],
      contexts: [{ name: 'late', context: { cluster: 'k' } }],
      'current-context': 'other'
    })
    expect(resolveKubeconfig(kubeconfigSource([a, b].join(path.delimiter)))).toMatchObject({
      context: 'late',
      server: 'https://a.k'
    })
  })

  it.each(['clusters', 'users', 'contexts'] as const)(
    'a file naming two %s alike is refused, naming the file',
    key => {
      const entry = {
        clusters: { cluster: { server: 'https://x' } },
        users: { user: {} },
        contexts: { context: { cluster: 'x' } }
      }[key]
      const f = file(`merge/dup-${key}`, {
        clusters: [{ name: 'x', cluster: { server: 'https://x' } }],
        contexts: [{ name: 'x', context: { cluster: 'x' } }],
        [key]: [
          { name: 'd', ...entry },
          { name: 'd', ...entry }
        ],
        'current-context': 'x'
      })
      const m = message(() => resolveKubeconfig(kubeconfigSource(f)))
      expect(m).toContain(f)
      expect(m).toContain(key)
      expect(m).toContain('"d"')
    }
  )
})

describe('the settings with a kubeconfig', () => {
  const config = () => file('settings/config', PROD)

  it('verify and drift need no Azure input; they sign in to Azure only for drift with subscription-id', () => {
    for (const mode of ['verify', 'drift']) {
      const r = readSettings(reader({ mode, kubeconfig: config() }))
      expect(r.settings.cluster.kubeconfig).toEqual({ files: [config()] })
      expect(usesAzure(r.settings)).toBe(false)
      expect(r.secrets).toContain(TOKEN)
    }
    const drift = readSettings(reader({ ...VALID_APPLY, mode: 'drift', kubeconfig: config() }))
    expect(usesAzure(drift.settings)).toBe(true)
    // drift with a subscription compares the pool: it needs the cluster's name and group.
    expect(
      problems({ mode: 'drift', kubeconfig: config(), 'subscription-id': VALID_APPLY['subscription-id'] })
    ).toEqual(['resource-group: required', 'cluster-name: required'])
  })

  it('apply with a kubeconfig still signs in (the feature and the pool are Azure’s)', () => {
    expect(problems({ mode: 'apply', kubeconfig: config() })).toEqual([
      'subscription-id: required (or in creds) outside plan mode',
      'resource-group: required',
      'cluster-name: required'
    ])
    const r = readSettings(
      reader({ ...VALID_APPLY, mode: 'apply', kubeconfig: config(), 'kube-context': 'prod-aad' })
    )
    expect(usesAzure(r.settings)).toBe(true)
    expect(r.settings.cluster.kubeconfig).toEqual({ files: [config()], context: 'prod-aad' })
  })

  it('uninstall with a kubeconfig signs in only when cleanup deletes the pool or the cluster', () => {
    const r = readSettings(reader({ mode: 'uninstall', kubeconfig: config() }))
    expect(usesAzure(r.settings)).toBe(false)
    expect(problems({ mode: 'uninstall', kubeconfig: config(), cleanup: 'node-pool' })).toEqual([
      'subscription-id: required (or in creds) outside plan mode',
      'resource-group: required',
      'cluster-name: required'
    ])
    const pool = readSettings(
      reader({ ...VALID_APPLY, mode: 'uninstall', kubeconfig: config(), cleanup: 'node-pool' })
    )
    expect(usesAzure(pool.settings)).toBe(true)
  })

  it('a missing file or context is an input problem (exit 2), the text of a given kubeconfig hidden', () => {
    expect(problems({ mode: 'verify', kubeconfig: path.join(dir, 'missing') })).toEqual([
      expect.stringMatching(/^kubeconfig .*missing: file not found/)
    ])
    expect(problems({ mode: 'verify', kubeconfig: config(), 'kube-context': 'staging' })).toEqual([
      `kube-context "staging": no such context in kubeconfig ${config()}; it has prod, prod-aad`
    ])
    expect(
      problems({
        ...VALID_APPLY,
        mode: 'apply',
        kubeconfig: config(),
        'create-cluster': 'true',
        location: 'eastus'
      })
    ).toEqual([
      'kubeconfig: not with create-cluster: true (a cluster this run creates has no kubeconfig yet)'
    ])
    expect(problems({ mode: 'verify', 'kube-context': 'prod' })).toContain(
      'kube-context "prod": only with kubeconfig (a context of that kubeconfig)'
    )
    const text = stringify(PROD)
    const r = readSettings(reader({ mode: 'verify', kubeconfig: text }))
    // Each credential on its own (the runner masks line by line), not the whole multi-line text.
    expect(r.secrets).toContain(TOKEN)
    expect(r.secrets.filter(v => /[\r\n]/.test(v))).toEqual([])
    const bad = problems({ mode: 'verify', kubeconfig: text, 'kube-context': 'x' }).join('\n')
    expect(bad).not.toContain(TOKEN)
    expect(bad).toContain('kubeconfig (hidden)')
  })
})
