// The collective check's run against a fake client over an in-memory cluster: the worker pod and
// the nodes outside the pair first, the launcher (with the worker's IP) once the worker runs; when
// the worker cannot run, no launcher and every node's problem; the ssh Secret and the topology
// ConfigMap deleted afterwards only while they are the objects the run created (by uid), a
// same-named one made again by someone else kept with a warning; the pods deleted by the run's
// label before and after.
import { describe, expect, it } from '@jest/globals'
import { runCollectiveCheck } from '../../../src/collective/runner.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { captureLog } from '../../support/capture-log.js'
import { memoryKube, setPodStatus, unschedulableStatus, until } from '../../support/memory-kube.js'
import { benchFacts, factsOf } from '../../support/probe-facts.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const NS = 'aks-rdma-verify'

function settings(): Settings {
  const s = readSettings(reader({ ...VALID_APPLY, mode: 'verify', 'collective-check': 'nccl' }), {}).settings
  s.runId = 'run-abc-123456789012'
  return s
}

const secrets = (f: ReturnType<typeof memoryKube>) => f.cluster.all('v1', 'Secret', { namespace: NS })
const configMaps = (f: ReturnType<typeof memoryKube>) =>
  f.cluster.all('v1', 'ConfigMap', { namespace: NS }).filter(c => c.metadata.name.startsWith('nccl-'))

const pods = (f: ReturnType<typeof memoryKube>) => f.cluster.all('v1', 'Pod', { namespace: NS })

/** The check started on two 8-GPU nodes (their facts in this order), once its worker pod is created. */
async function started(nodes: [string, string]) {
  const f = memoryKube()
  const log = captureLog()
  const run = runCollectiveCheck({
    settings: settings(),
    kube: f.kube,
    facts: factsOf(...nodes.map(n => benchFacts(n, 8))),
    timeoutMs: 30_000,
    log
  })
  await until(() => pods(f).length === 1, 'worker created')
  const [worker] = pods(f)
  return { f, log, run, worker }
}

describe('runCollectiveCheck', () => {
  it('the worker unschedulable: no launcher, both nodes named, the Secret and ConfigMap it made deleted by uid', async () => {
    const { f, run, worker } = await started(['n1', 'n0'])
    expect(worker.metadata.labels!['aks-rdma-action/role']).toBe('worker')
    expect(worker.metadata.labels!['aks-rdma-action/node']).toBe('n1')
    expect(secrets(f)).toHaveLength(1)
    expect(configMaps(f).map(c => Object.keys(c.data!))).toEqual([['ndv5-topo.xml']])
    const uid = secrets(f)[0].metadata.uid
    setPodStatus(
      f.cluster,
      worker.metadata.name,
      NS,
      unschedulableStatus('0/2 nodes are available: 2 Insufficient nvidia.com/gpu.')
    )
    const out = await run
    expect(out.collective.mode).toBe('failed')
    expect(out.collective.verdict).toBe('fail')
    expect(out.collective.reason).toContain('unschedulable: 0/2 nodes are available')
    expect(out.collective.nodes.map(n => [n.node, n.verdict])).toEqual([
      ['n0', 'fail'],
      ['n1', 'fail']
    ])
    expect(out.collective.nodes[0].reason).toMatch(/^not started: the worker pod did not run/)
    expect(pods(f)).toEqual([])
    expect(secrets(f)).toEqual([])
    expect(configMaps(f)).toEqual([])
    expect(f.calls).toContainEqual(expect.stringContaining(`uid ${uid}`))
  })

  it('a same-named Secret made again by someone else while it ran is kept, with a warning', async () => {
    const { f, log, run, worker } = await started(['n0', 'n1'])
    const [mine] = secrets(f)
    f.cluster.remove('v1', 'Secret', mine.metadata.name, NS)
    f.cluster.put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: mine.metadata.name, namespace: NS, uid: 'someone-else' }
    })
    setPodStatus(f.cluster, worker.metadata.name, NS, unschedulableStatus('no'))
    await run
    expect(secrets(f).map(x => x.metadata.uid)).toEqual(['someone-else'])
    expect(log.warnings).toContainEqual(
      expect.stringMatching(/^could not delete Secret nccl-.*-ssh -n aks-rdma-verify: .*Precondition failed/)
    )
  })
})
