// Everyday kubectl against a whole simulated world (what `sim up` starts): the real kubectl on
// PATH (or $KUBECTL) creates a namespace, a ConfigMap and a Deployment (sent as protobuf), applies
// server-side, labels, scales, waits for the rollout, reads and follows logs, describes, execs (a
// command, stdin, a terminal), copies files both ways, attaches, forwards a port, prints the usual
// columns and events, diffs, patches, rolls a DaemonSet and a Deployment back, lists API resources,
// explains built-in and CRD fields, asks `auth can-i` for the admin and for a user credential with
// fewer rights, meets a pod that is still being deleted, and deletes the namespace with its
// contents. Skipped, with a notice, when there is no kubectl.
import { describe, expect, it, jest } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import type { World } from '../../../sim/world.js'
import { findKubectl, kubectlRunner } from '../../support/kubectl-runner.js'
import { scratchWorldForTests } from '../../support/scratch-world.js'

jest.setTimeout(180_000)

const KUBECTL = findKubectl()
const SCRIPT = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
})()
if (!KUBECTL) console.warn('kubectl is not on PATH: the everyday kubectl suite is skipped')
const suite = KUBECTL ? describe : describe.skip
const suiteName = KUBECTL
  ? `everyday kubectl (${KUBECTL}) against a simulated world`
  : 'everyday kubectl against a simulated world: SKIPPED, kubectl is not on PATH (or set KUBECTL)'

let world: World
let dir: string

const { kubectl, kubectlAs, kubectlIn, kubectlRunning, ok } = kubectlRunner(
  KUBECTL ?? 'kubectl',
  () => dir,
  'admin'
)

async function until(cond: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 20))
  }
}

suite(suiteName, () => {
  scratchWorldForTests(
    'sim-kubectl-everyday-',
    (started, scratch) => {
      world = started
      dir = scratch
    },
    {
      kube: {
        access: [
          {
            user: 'clusterUser',
            rules: [{ apiGroups: ['', 'apps'], resources: ['*'], verbs: ['get', 'list', 'watch'] }]
          }
        ]
      }
    }
  )

  it('gets and describes the nodes', async () => {
    const nodes = await ok('get', 'nodes')
    expect(nodes).toMatch(/NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/)
    expect(nodes).toMatch(/aks-system-\S+\s+Ready\s+agent\s+\S+\s+v1\.33\.2/)
    const name = (await ok('get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}')).trim()
    expect(await ok('describe', 'node', name)).toMatch(new RegExp(`Name:\\s+${name}`))
  })

  it('creates a namespace, a ConfigMap and a Deployment, and applies server-side', async () => {
    expect(await ok('create', 'namespace', 'smoke')).toBe('namespace/smoke created\n')
    expect(await ok('get', 'namespace', 'smoke', '-o', 'jsonpath={.status.phase}')).toBe('Active')
    expect(await ok('create', 'configmap', 'settings', '-n', 'smoke', '--from-literal=mode=rdma')).toBe(
      'configmap/settings created\n'
    )
    expect(await ok('get', 'configmap', 'settings', '-n', 'smoke', '-o', 'jsonpath={.data.mode}')).toBe(
      'rdma'
    )
    expect(
      await ok(
        'create',
        'deployment',
        'web',
        '-n',
        'smoke',
        '--image=busybox:1.36',
        '--',
        'sh',
        '-c',
        'echo hello from web; sleep infinity'
      )
    ).toBe('deployment.apps/web created\n')
    const applied = path.join(dir, 'applied.yaml')
    writeFileSync(
      applied,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: smoke}\ndata: {a: "1"}\n'
    )
    expect(await ok('apply', '--server-side', '-f', applied)).toBe('configmap/applied serverside-applied\n')
    expect(await ok('get', 'configmaps', '-n', 'smoke')).toMatch(/applied\s+1\s+\S+\n(.*\n)*settings\s+1\s/)
  })

  it('waits for the rollout, scales, labels and waits for a condition', async () => {
    expect(await ok('rollout', 'status', 'deployment/web', '-n', 'smoke', '--timeout=60s')).toContain(
      'deployment "web" successfully rolled out'
    )
    expect(await ok('scale', 'deployment', 'web', '-n', 'smoke', '--replicas=3')).toBe(
      'deployment.apps/web scaled\n'
    )
    await ok('rollout', 'status', 'deployment/web', '-n', 'smoke', '--timeout=60s')
    expect(
      await ok('get', 'deployment', 'web', '-n', 'smoke', '-o', 'jsonpath={.status.readyReplicas}')
    ).toBe('3')
    expect(await ok('label', 'deployment', 'web', '-n', 'smoke', 'tier=frontend')).toBe(
      'deployment.apps/web labeled\n'
    )
    expect(await ok('get', 'deployments', '-n', 'smoke', '-l', 'tier=frontend', '-o', 'name')).toBe(
      'deployment.apps/web\n'
    )
    expect(
      await ok('wait', '--for=condition=Available', 'deployment/web', '-n', 'smoke', '--timeout=30s')
    ).toBe('deployment.apps/web condition met\n')
    const pods = await ok('get', 'pods', '-n', 'smoke', '-l', 'app=web')
    expect(pods.trim().split('\n').slice(1)).toEqual(
      Array(3).fill(expect.stringMatching(/^web-\S+\s+1\/1\s+Running\s+0\s/))
    )
  })

  it('reads logs and describes the Deployment', async () => {
    expect(await ok('logs', '-n', 'smoke', 'deployment/web')).toBe('hello from web\n')
    const described = await ok('describe', 'deployment', 'web', '-n', 'smoke')
    expect(described).toMatch(/Replicas:\s+3 desired \| 3 updated \| 3 total \| 3 available \| 0 unavailable/)
    expect(described).toMatch(/Labels:\s+app=web\n\s+tier=frontend/)
  })

  it('lists API resources and explains fields', async () => {
    const resources = await ok('api-resources')
    expect(resources).toMatch(/deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/)
    expect(resources).toMatch(
      /selfsubjectaccessreviews\s+authorization\.k8s\.io\/v1\s+false\s+SelfSubjectAccessReview/
    )
    const explained = await ok('explain', 'deployment.spec.replicas')
    expect(explained).toMatch(/FIELD:\s+replicas <integer>/)
    expect(explained).toContain('Number of desired pods.')
  })

  it('answers auth can-i for the admin and for a user credential that may only read', async () => {
    expect(await ok('auth', 'can-i', 'create', 'daemonsets', '-A')).toBe('yes\n')
    const user = path.join(dir, 'user')
    expect(await kubectlAs(user, 'auth', 'can-i', 'list', 'pods', '-n', 'smoke')).toMatchObject({
      code: 0,
      stdout: 'yes\n'
    })
    expect(await kubectlAs(user, 'auth', 'can-i', 'create', 'daemonsets', '-A')).toMatchObject({
      code: 1,
      stdout: 'no\n'
    })
    const denied = await kubectlAs(user, 'delete', 'configmap', 'settings', '-n', 'smoke')
    expect(denied.code).toBe(1)
    expect(denied.stderr).toBe(
      'Error from server (Forbidden): configmaps "settings" is forbidden: User "clusterUser" cannot delete resource "configmaps" in API group "" in the namespace "smoke"\n'
    )
  })

  it('execs a command with its exit code, feeds stdin, runs a terminal session, and copies files both ways', async () => {
    const pod = (
      await ok('get', 'pods', '-n', 'smoke', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}')
    ).trim()
    const run = await kubectl(
      'exec',
      '-n',
      'smoke',
      pod,
      '--',
      'sh',
      '-c',
      'echo out $HOSTNAME; echo err >&2; exit 3'
    )
    expect(run).toMatchObject({ code: 3, stdout: `out ${pod}\n` })
    expect(run.stderr).toBe('err\ncommand terminated with exit code 3\n')
    const piped = await kubectlIn(
      'one\ntwo\n',
      'exec',
      '-i',
      '-n',
      'smoke',
      pod,
      '--',
      'sh',
      '-c',
      'cat > /tmp/in; cat /tmp/in'
    )
    expect(piped.stdout).toBe('one\ntwo\n')
    writeFileSync(path.join(dir, 'up.txt'), 'uploaded through tar\n')
    await ok('cp', path.join(dir, 'up.txt'), `smoke/${pod}:/tmp/up.txt`)
    expect(await ok('exec', '-n', 'smoke', pod, '--', 'cat', '/tmp/up.txt')).toBe('uploaded through tar\n')
    await ok('cp', `smoke/${pod}:/tmp/up.txt`, path.join(dir, 'down.txt'))
    expect(readFileSync(path.join(dir, 'down.txt'), 'utf8')).toBe('uploaded through tar\n')
    // `sh` reading its script from stdin, then a terminal through script(1): echo, the prompt, CRLF.
    const fromStdin = await kubectlIn(
      'echo from stdin\nexit 4\n',
      'exec',
      '-i',
      '-n',
      'smoke',
      pod,
      '--',
      'sh'
    )
    expect(fromStdin).toMatchObject({ code: 4, stdout: 'from stdin\n' })
    if (!SCRIPT) return console.warn('script(1) is not on PATH: the kubectl exec -it case is skipped')
    const line = [
      KUBECTL!,
      '--kubeconfig',
      path.join(dir, 'admin'),
      'exec',
      '-it',
      '-n',
      'smoke',
      pod,
      '--',
      'sh'
    ]
    const tty = spawn(SCRIPT, ['-q', '-e', '-c', line.join(' '), '/dev/null'], {
      env: { ...process.env, HOME: dir }
    })
    let screen = ''
    tty.stdout.on('data', d => (screen += d))
    await until(() => screen.includes('# '))
    tty.stdin.write('echo $HOSTNAME\r')
    await until(() => screen.includes(`${pod}\r\n# `))
    tty.stdin.write('exit 2\r')
    expect(await new Promise(r => tty.on('close', r))).toBe(2)
    expect(screen).toContain(`# echo $HOSTNAME\r\n${pod}\r\n# exit 2\r\n`)
  })

  it('follows a Job’s log to its end, waits for it, and prints the usual columns and events', async () => {
    const script = 'for i in 1 2 3; do echo n$i; sleep 5; done'
    await ok('create', 'job', 'count', '-n', 'smoke', '--image=busybox:1.36', '--', 'sh', '-c', script)
    expect(await ok('logs', '-f', '-n', 'smoke', 'job/count')).toBe('n1\nn2\nn3\n')
    expect(await ok('wait', '--for=condition=complete', 'job/count', '-n', 'smoke', '--timeout=60s')).toBe(
      'job.batch/count condition met\n'
    )
    expect(await ok('get', 'jobs', '-n', 'smoke')).toMatch(
      /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\ncount\s+Complete\s+1\/1\s+\S+\s+\S+\n$/
    )
    expect(await ok('get', 'rs', '-n', 'smoke')).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nweb-\S+\s+3\s+3\s+3\s/
    )
    expect(await ok('get', 'svc', '-n', 'default')).toMatch(
      /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nkubernetes\s+ClusterIP\s+10\.0\.0\.1\s+<none>\s+443\/TCP\s/
    )
    const events = await ok('get', 'events', '-n', 'smoke')
    expect(events.split('\n')[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/)
    expect(events).toMatch(/Normal\s+Started\s+pod\/count-\S+\s+Started container count/)
    const described = await ok('describe', 'pod', '-l', 'job-name=count', '-n', 'smoke')
    expect(described).toMatch(/Normal\s+Started\s+\S+\s+kubelet\s+Started container count/)
    for (const text of [events, await ok('events', '-n', 'smoke'), described])
      expect(text).not.toContain('<invalid>')
  })

  it('attaches to a container and forwards a port to it', async () => {
    await ok(
      'run',
      'ticker',
      '-n',
      'smoke',
      '--image=busybox:1.36',
      '--',
      'sh',
      '-c',
      'while true; do echo tick; sleep 2; done'
    )
    await ok('wait', '--for=condition=Ready', 'pod/ticker', '-n', 'smoke', '--timeout=60s')
    const attached = kubectlRunning('attach', '-n', 'smoke', 'ticker')
    await until(() => attached.out.stdout.includes('tick\n'))
    attached.stop()
    await attached.exited
    const pod = (
      await ok('get', 'pods', '-n', 'smoke', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}')
    ).trim()
    const uid = (await ok('get', 'pod', pod, '-n', 'smoke', '-o', 'jsonpath={.metadata.uid}')).trim()
    // Something in the pod listens on 8080 and echoes what it gets, upper-cased.
    const stopListening = world.kube.controllers.kubelet.listen(uid, 8080, conn =>
      conn.onData(d => conn.write(Buffer.from(d.toString().toUpperCase())))
    )
    const pf = kubectlRunning('port-forward', '-n', 'smoke', `pod/${pod}`, ':8080', ':81')
    const local = (remote: number) =>
      Number(new RegExp(`127\\.0\\.0\\.1:(\\d+) -> ${remote}\\n`).exec(pf.out.stdout)?.[1] ?? 0)
    await until(() => local(8080) > 0 && local(81) > 0)
    const echoed = await new Promise<string>((resolve, reject) => {
      const s = net.connect(local(8080), '127.0.0.1', () => s.write('hello through the tunnel'))
      s.on('data', d => {
        resolve(d.toString())
        s.end()
      })
      s.on('error', reject)
    })
    expect(echoed).toBe('HELLO THROUGH THE TUNNEL')
    // Nothing listens on 81: the kubelet's refusal, and kubectl gives up on the pod as with a real one.
    net.connect(local(81), '127.0.0.1').on('error', () => undefined)
    expect(await pf.exited).toBe(1)
    expect(pf.out.stderr).toMatch(
      /an error occurred forwarding \d+ -> 81: error forwarding port 81 to pod \S+, uid : .*dial tcp4 127\.0\.0\.1:81: connect: connection refused/
    )
    expect(pf.out.stderr).toContain('error: lost connection to pod')
    stopListening()
  })

  it('diffs, patches, rolls a DaemonSet out and a Deployment back to the ReplicaSet it had', async () => {
    const cm = path.join(dir, 'cm.yaml')
    writeFileSync(
      cm,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: smoke}\ndata: {mode: ethernet}\n'
    )
    const diff = await kubectl('diff', '-f', cm)
    expect(diff.code).toBe(1)
    expect(diff.stdout).toMatch(/-\s+mode: rdma\n\+\s+mode: ethernet/)
    const patched = await ok(
      'patch',
      'configmap',
      'settings',
      '-n',
      'smoke',
      '--type=merge',
      '-p',
      '{"data":{"mode":"ethernet"}}'
    )
    expect(patched).toBe('configmap/settings patched\n')
    expect((await kubectl('diff', '-f', cm)).stdout).not.toMatch(/mode: rdma/)
    const ds = path.join(dir, 'ds.yaml')
    writeFileSync(
      ds,
      'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: smoke}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec: {containers: [{name: agent, image: "busybox:1.36", command: [sh, -c, "sleep infinity"]}]}\n'
    )
    await ok('apply', '-f', ds)
    expect(await ok('rollout', 'status', 'daemonset/agent', '-n', 'smoke', '--timeout=60s')).toContain(
      'daemon set "agent" successfully rolled out'
    )
    await ok('set', 'image', 'deployment/web', '-n', 'smoke', 'busybox=busybox:1.37')
    await ok('rollout', 'status', 'deployment/web', '-n', 'smoke', '--timeout=60s')
    expect(await ok('rollout', 'undo', 'deployment/web', '-n', 'smoke')).toBe(
      'deployment.apps/web rolled back\n'
    )
    await ok('rollout', 'status', 'deployment/web', '-n', 'smoke', '--timeout=60s')
    const revisions = await ok(
      'get',
      'rs',
      '-n',
      'smoke',
      '-l',
      'app=web',
      '-o',
      'jsonpath={range .items[*]}{.metadata.annotations.deployment\\.kubernetes\\.io/revision}={.spec.replicas} {end}'
    )
    // The first ReplicaSet is back (as revision 3), no third one was made.
    expect(revisions.trim().split(' ').sort()).toEqual(['2=0', '3=3'])
  })

  it('explains a CRD’s fields once its CRD is applied', async () => {
    await ok('apply', '--server-side', '-f', path.resolve('sim/kube/crds/network-operator-v26.4.0.yaml'))
    await ok('wait', '--for=condition=Established', 'crd/nicclusterpolicies.mellanox.com', '--timeout=30s')
    const explained = await ok('explain', 'nicclusterpolicy.spec.ofedDriver.version')
    expect(explained).toMatch(/FIELD:\s+version <string>/)
    expect(explained).toContain('Version of the image to use')
  })

  it('refuses to re-create a pod that is still being deleted, as a real cluster does', async () => {
    await ok('run', 'once', '-n', 'smoke', '--image=busybox:1.36', '--', 'sh', '-c', 'sleep infinity')
    await ok('wait', '--for=condition=Ready', 'pod/once', '-n', 'smoke', '--timeout=60s')
    // A grace period longer than the test, so the pod is still terminating when the name is reused.
    await ok('delete', 'pod', 'once', '-n', 'smoke', '--wait=false', '--grace-period=360000')
    const again = await kubectl('run', 'once', '-n', 'smoke', '--image=busybox:1.36')
    expect(again.code).toBe(1)
    expect(again.stderr).toBe(
      'Error from server (AlreadyExists): object is being deleted: pods "once" already exists\n'
    )
    expect(await ok('get', 'pod', 'once', '-n', 'smoke')).toMatch(/once\s+1\/1\s+Terminating\s/)
    await ok('delete', 'pod', 'once', '-n', 'smoke', '--grace-period=0', '--force')
    await ok('run', 'once', '-n', 'smoke', '--image=busybox:1.36', '--', 'sh', '-c', 'sleep infinity')
  })

  it('deletes the namespace with everything in it', async () => {
    expect(await ok('delete', 'namespace', 'smoke')).toBe('namespace "smoke" deleted\n')
    const left = await kubectl('get', 'deployments,configmaps,pods', '-n', 'smoke', '-o', 'name')
    expect(left).toMatchObject({ code: 0, stdout: '' })
    expect((await kubectl('get', 'namespace', 'smoke')).stderr).toContain('namespaces "smoke" not found')
  })
})
