// What the CLI takes from the terminal's own tools: kubectl's kubeconfig ($KUBECONFIG, else
// ~/.kube/config, and its current context) for verify, drift, status and uninstall --dry-run given
// no cluster, and the subscription of auth-type cli (AZURE_SUBSCRIPTION_ID, else az's default), each
// named in the log.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defaultKubeconfig, defaultSubscription } from '../../../cli/local-context.js'

const SUB = '00000000-0000-0000-0000-0000000000aa'

function kubeconfig(context: string, server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${context}`,
    `clusters: [{name: c-${context}, cluster: {server: "${server}"}}]`,
    `users: [{name: u-${context}, user: {token: a-token-of-${context}-0123456789}}]`,
    `contexts: [{name: ${context}, context: {cluster: c-${context}, user: u-${context}}}]`,
    ''
  ].join('\n')
}

function homeWithKubeconfig(
  context = 'aks-gpu',
  server = 'https://aks-gpu.hcp.eastus.azmk8s.io:443'
): string {
  const home = mkdtempSync(path.join(tmpdir(), 'home-'))
  mkdirSync(path.join(home, '.kube'))
  writeFileSync(path.join(home, '.kube', 'config'), kubeconfig(context, server))
  return home
}

describe("kubectl's kubeconfig for verify and drift", () => {
  it('without $KUBECONFIG, ~/.kube/config and its current context, naming the context and server', () => {
    const home = homeWithKubeconfig()
    const d = defaultKubeconfig('verify', { 'node-pool': 'x' }, {}, home)
    expect(d.inputs).toEqual({ kubeconfig: path.join(home, '.kube', 'config') })
    expect(d.note).toContain('context aks-gpu')
    expect(d.note).toContain('server https://aks-gpu.hcp.eastus.azmk8s.io)')
    // Its credentials are masked before anything is printed.
    expect(d.secrets).toContain('a-token-of-aks-gpu-0123456789')
    expect(d.note).not.toContain('a-token-of')
  })

  it('$KUBECONFIG (a list) wins over ~/.kube/config; a server never shows its user or password', () => {
    const home = homeWithKubeconfig()
    const other = path.join(home, 'other')
    writeFileSync(other, kubeconfig('lab', 'https://user:pw@10.0.0.1:6443/x'))
    const list = `${path.join(home, 'missing')}${path.delimiter}${other}`
    const d = defaultKubeconfig('drift', {}, { KUBECONFIG: list }, home)
    expect(d.inputs).toEqual({ kubeconfig: list })
    expect(d.note).toContain('context lab')
    expect(d.note).toContain('https://10.0.0.1:6443')
    expect(d.note).not.toContain('pw')
  })

  it('not with a named Azure cluster, a kubeconfig given, another mode, or no kubeconfig at all', () => {
    const home = homeWithKubeconfig()
    expect(defaultKubeconfig('verify', { 'resource-group': 'rg' }, {}, home).inputs).toEqual({})
    expect(defaultKubeconfig('verify', {}, { 'INPUT_CLUSTER-NAME': 'aks' }, home).inputs).toEqual({})
    expect(defaultKubeconfig('verify', { kubeconfig: '/k' }, {}, home).inputs).toEqual({})
    expect(defaultKubeconfig('apply', {}, {}, home).inputs).toEqual({})
    expect(defaultKubeconfig('verify', {}, {}, mkdtempSync(path.join(tmpdir(), 'home-'))).inputs).toEqual({})
  })

  it('status and uninstall --dry-run read it too (uninstall itself never does), naming the command', () => {
    const home = homeWithKubeconfig()
    const status = defaultKubeconfig('status', {}, {}, home)
    expect(status.inputs).toEqual({ kubeconfig: path.join(home, '.kube', 'config') })
    expect(status.note).toMatch(/^status: the cluster of kubectl's default kubeconfig .*: context aks-gpu/)
    const preview = defaultKubeconfig('uninstall-preview', {}, {}, home)
    expect(preview.inputs).toEqual({ kubeconfig: path.join(home, '.kube', 'config') })
    expect(preview.note).toMatch(/^uninstall --dry-run: the cluster of /)
    expect(defaultKubeconfig('uninstall', {}, {}, home).inputs).toEqual({})
    expect(defaultKubeconfig('status', { 'cluster-name': 'aks' }, {}, home).inputs).toEqual({})
  })
})

describe('the subscription of auth-type cli', () => {
  const az = (id?: string) => () => (id ? { id } : { why: "az account show failed: Please run 'az login'" })

  it("AZURE_SUBSCRIPTION_ID first, else az's default; each says where it came from", () => {
    const fromEnv = defaultSubscription(
      'verify',
      { 'auth-type': 'cli' },
      { AZURE_SUBSCRIPTION_ID: SUB },
      az('x')
    )
    expect(fromEnv.inputs).toEqual({ 'subscription-id': SUB })
    expect(fromEnv.note).toContain('AZURE_SUBSCRIPTION_ID')
    const fromAz = defaultSubscription('apply', { 'auth-type': 'cli' }, {}, az(SUB))
    expect(fromAz.inputs).toEqual({ 'subscription-id': SUB })
    expect(fromAz.note).toContain('az account show')
  })

  it('signed out: no subscription, and a warning saying to sign in', () => {
    const d = defaultSubscription('apply', { 'auth-type': 'cli' }, {}, az())
    expect(d.inputs).toEqual({})
    expect(d.warning).toMatch(/az login/)
  })

  it('only for auth-type cli, and never over a given subscription, creds, or a kubeconfig verify', () => {
    const never = () => {
      throw new Error('az must not run')
    }
    expect(defaultSubscription('apply', {}, { AZURE_SUBSCRIPTION_ID: SUB }, never).inputs).toEqual({})
    expect(defaultSubscription('apply', { 'auth-type': 'oidc' }, {}, never).inputs).toEqual({})
    expect(
      defaultSubscription('apply', { 'auth-type': 'cli', 'subscription-id': 'given' }, {}, never).inputs
    ).toEqual({})
    expect(defaultSubscription('apply', { 'auth-type': 'cli' }, { INPUT_CREDS: '{}' }, never).inputs).toEqual(
      {}
    )
    expect(defaultSubscription('drift', { 'auth-type': 'cli', kubeconfig: '/k' }, {}, never).inputs).toEqual(
      {}
    )
    expect(defaultSubscription('plan', { 'auth-type': 'cli' }, {}, never).inputs).toEqual({})
  })
})
