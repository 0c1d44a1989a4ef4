// The RDMA node pool step over an in-memory ARM: precheckNodePool's one GET (absent, compatible,
// refused before any write when it differs in a field fixed at creation or is Failed), and
// ensureNodePool's race-free create (If-None-Match: *, announced before the PUT, exact body and LRO
// options, progress lines with the pool's state, quota and SKU hints, a failed operation explained
// from the pool's provisioningError or the LRO error, the step timeout), a 412 race turned into a
// reuse, and the reuse of an existing pool without a write (warnings for what differs, waiting for a
// transitional state to settle). Date.now is a fake clock; the LRO is a fake PollerLike shaped as
// @azure/core-lro's (arm-resource.ts). The pure comparisons are in pool-decisions.test.ts.
import { afterEach, describe, expect, it } from '@jest/globals'
import type { AgentPool } from '@azure/arm-containerservice'
import {
  desiredAgentPool,
  ensureNodePool,
  NodePoolError,
  precheckNodePool,
  type NodePoolOptions
} from '../../../src/azure/node-pool.js'
import { AzureWaitTimeoutError } from '../../../src/azure/wait.js'
import { cancelRun, resetCancellation, RunCancelledError } from '../../../src/util/cancel.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { armFail } from '../../support/arm-errors.js'
import { armResource, type ArmScript } from '../../support/arm-resource.js'
import { useFixedNow } from '../../support/fixed-now.js'
import { recordingCreateOptions } from '../../support/aks-create.js'

const SUB = '00000000-0000-0000-0000-000000000000'
const NP = `--subscription ${SUB} --resource-group rg --cluster-name aks1 --name rdmapool`
const DELETE = `Delete the failed pool (az aks nodepool delete ${NP}) or fix the cause and re-run.`
const settings = (over: Record<string, string> = {}) =>
  readSettings(reader({ ...VALID_APPLY, ...over }), { GITHUB_RUN_ID: '5' }, { nonce: '0123456789ab' })
    .settings

const now = useFixedNow(1_000_000)

/** ARM with the pool rg/aks1/rdmapool (`pool`), scripted as armResource says. */
const arm = (o: ArmScript<AgentPool> & { pool?: AgentPool | Error } = {}) =>
  armResource<AgentPool>({ group: 'agentPools', clock: now, resource: o.pool, ...o })

const GET = 'GET rg/aks1/rdmapool'
const PUT = 'PUT rg/aks1/rdmapool'

const opts = (
  log: CapturedLog,
  more: Partial<NodePoolOptions> = {}
): NodePoolOptions & { events: string[] } => ({
  ...recordingCreateOptions(log, 600_000),
  ...more
})

/** A live pool as the settings would have created it. */
const livePool = (over: AgentPool = {}): AgentPool => ({
  ...desiredAgentPool(settings()),
  provisioningState: 'Succeeded',
  ...over
})

describe('precheckNodePool', () => {
  it('an absent pool will be created', async () => {
    const a = arm()
    const log = captureLog()
    expect(await precheckNodePool(a.clients, settings(), { log })).toEqual({ state: 'absent' })
    expect(a.calls).toEqual([GET])
    expect(log.lines).toEqual(['info: node pool rdmapool: absent; it will be created'])
  })

  it('a compatible pool is present, its state defaulting to Succeeded', async () => {
    const pool = livePool({ provisioningState: undefined, count: 3 })
    const a = arm({ pool })
    const log = captureLog()
    expect(await precheckNodePool(a.clients, settings(), { log })).toEqual({ state: 'present', pool })
    expect(await precheckNodePool(arm({ pool: livePool() }).clients, settings(), { log })).toMatchObject({
      state: 'present'
    })
    expect(log.lines).toEqual([
      'info: node pool rdmapool: exists (3× Standard_ND96isr_H100_v5, Succeeded) and is compatible',
      'info: node pool rdmapool: exists (2× Standard_ND96isr_H100_v5, Succeeded) and is compatible'
    ])
  })

  it('a pool differing in fields fixed at creation is refused, each field listed, nothing written', async () => {
    const a = arm({ pool: livePool({ vmSize: 'Standard_ND96asr_v4', gpuProfile: { driver: 'Install' } }) })
    const log = captureLog()
    const err = await precheckNodePool(a.clients, settings(), { log }).catch(e => e)
    expect(err).toBeInstanceOf(NodePoolError)
    expect(err.name).toBe('NodePoolError')
    expect(err.message).toBe(
      'node pool rdmapool: an existing pool differs in fields fixed at creation, so it cannot be used (nothing was changed):\n' +
        '  - vmSize: wanted Standard_ND96isr_H100_v5, found Standard_ND96asr_v4\n' +
        '  - gpuProfile.driver: wanted None, found Install\n' +
        `Fix: set the node-pool input to a new name, or delete the pool (az aks nodepool delete ${NP}) and re-run.`
    )
    expect(a.calls).toEqual([GET])
    expect(log.lines).toEqual([])
  })

  it('a pool whose taints the stack does not tolerate is refused', async () => {
    const a = arm({ pool: livePool({ nodeTaints: ['team=ml:NoSchedule'] }) })
    await expect(precheckNodePool(a.clients, settings(), { log: captureLog() })).rejects.toThrow(
      /^node pool rdmapool: its nodes carry taint team=ml:NoSchedule that node-taints does not list/
    )
  })

  it('a Failed pool is refused with ARM’s provisioning error and the command that deletes it', async () => {
    const failed = livePool({
      provisioningState: 'Failed',
      status: { provisioningError: { code: 'OverconstrainedAllocationRequest', message: 'No capacity.' } }
    })
    await expect(
      precheckNodePool(arm({ pool: failed }).clients, settings(), { log: captureLog() })
    ).rejects.toThrow(
      new NodePoolError(
        `node pool rdmapool: exists in provisioning state Failed (OverconstrainedAllocationRequest: No capacity.); nothing was changed. ${DELETE}`
      )
    )
    await expect(
      precheckNodePool(arm({ pool: livePool({ provisioningState: 'Failed' }) }).clients, settings(), {
        log: captureLog()
      })
    ).rejects.toThrow(
      new NodePoolError(
        `node pool rdmapool: exists in provisioning state Failed (Unknown: no message from ARM); nothing was changed. ${DELETE}`
      )
    )
  })

  it('a GET that fails, or a missing resource group, is an error quoting ARM', async () => {
    const a = arm({ pool: armFail(500, 'InternalServerError', 'boom') })
    await expect(precheckNodePool(a.clients, settings(), { log: captureLog() })).rejects.toThrow(
      new NodePoolError('node pool rdmapool: reading it failed: HTTP 500 InternalServerError: boom')
    )
    const rg = arm({ pool: armFail(404, 'ResourceGroupNotFound', "Resource group 'rg' could not be found.") })
    await expect(precheckNodePool(rg.clients, settings(), { log: captureLog() })).rejects.toThrow(
      new NodePoolError(
        "node pool rdmapool: reading it failed: HTTP 404 ResourceGroupNotFound: Resource group 'rg' could not be found."
      )
    )
  })
})

describe('ensureNodePool: creating', () => {
  it('announces the create, PUTs the desired pool with If-None-Match: *, logs the pool’s state as it goes', async () => {
    const s = settings()
    const a = arm({ getMs: 1000, lro: { states: ['Creating', 'Scaling'], pollMs: 2000 } })
    const log = captureLog()
    const events: string[] = []
    const o = opts(log, {
      pollIntervalMs: 7,
      onCreateSubmit: x => events.push(`submit ${JSON.stringify(x)} after ${a.calls.join(', ')}`)
    })
    const r = await ensureNodePool(a.clients, s, o)
    expect(r).toEqual({
      action: 'created',
      pool: { ...desiredAgentPool(s), provisioningState: 'Succeeded' },
      warnings: []
    })
    expect(events).toEqual([
      `submit ${JSON.stringify({ resourceGroup: 'rg', cluster: 'aks1', pool: 'rdmapool', createdBy: s.runId })} after ${GET}`
    ])
    expect(a.bodies).toEqual([desiredAgentPool(s)])
    expect(a.putOptions).toEqual([
      { ifNoneMatch: '*', updateIntervalInMs: 7, abortSignal: expect.any(AbortSignal) }
    ])
    // The wait's signal: the step's timeout, or the run's cancellation (never the PUT's own).
    expect(a.pollOptions).toEqual([{ abortSignal: expect.any(AbortSignal) }])
    // Each progress line says the state read after the previous poll; the GETs come from those reads.
    expect(a.calls).toEqual([GET, PUT, GET, GET])
    expect(log.lines).toEqual([
      'info: node pool rdmapool: absent; creating 2× Standard_ND96isr_H100_v5 (Ubuntu, gpuProfile.driver None) in rg/aks1',
      'info: node pool rdmapool: Creating (3s elapsed)',
      'info: node pool rdmapool: Creating (6s elapsed)',
      'info: node pool rdmapool: created (Succeeded, 9s)'
    ])
    const b = arm({ lro: { states: ['Creating', 'Scaling', 'Scaling'] } })
    const log2 = captureLog()
    await ensureNodePool(b.clients, s, opts(log2))
    expect(log2.lines.slice(1, 4)).toEqual([
      'info: node pool rdmapool: Creating (0ms elapsed)',
      'info: node pool rdmapool: Creating (0ms elapsed)',
      'info: node pool rdmapool: Scaling (0ms elapsed)'
    ])
  })

  it('keeps the last state when a progress read finds no pool or fails', async () => {
    const a = arm({
      lro: { states: ['Scaling', 'Scaling', 'Scaling'] },
      laterGets: [undefined, new Error('x')]
    })
    const log = captureLog()
    await ensureNodePool(a.clients, settings(), opts(log))
    expect(log.lines.slice(1, 4)).toEqual([
      'info: node pool rdmapool: Creating (0ms elapsed)',
      'info: node pool rdmapool: Creating (0ms elapsed)',
      'info: node pool rdmapool: Creating (0ms elapsed)'
    ])
  })

  it('after precheck found none, PUTs without reading again; polls every 10 s by default', async () => {
    const a = arm()
    const log = captureLog()
    const o = opts(log, { precheck: { state: 'absent' } })
    delete o.pollIntervalMs
    expect((await ensureNodePool(a.clients, settings(), o)).action).toBe('created')
    expect(a.calls).toEqual([PUT])
    expect(a.putOptions[0]).toMatchObject({ updateIntervalInMs: 10_000 })
  })

  it('reads the pool when the poller gives no result, and reports one it cannot read', async () => {
    const a = arm({ lro: { noResult: true, finalState: 'Succeeded' } })
    const log = captureLog()
    expect((await ensureNodePool(a.clients, settings(), opts(log))).pool.provisioningState).toBe('Succeeded')
    expect(a.calls).toEqual([GET, PUT, GET])
    const b = arm({ lro: { noResult: true }, laterGets: [undefined] })
    await expect(ensureNodePool(b.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError('node pool rdmapool: creation reported success but the pool cannot be read')
    )
  })

  it('a pool without a state after success counts as Succeeded', async () => {
    const a = arm({ lro: { noResult: true }, laterGets: [livePool({ provisioningState: undefined })] })
    const log = captureLog()
    await ensureNodePool(a.clients, settings(), opts(log))
    expect(log.lines[log.lines.length - 1]).toBe('info: node pool rdmapool: created (Succeeded, 0ms)')
  })

  it('a success that leaves the pool Failed is a failure with ARM’s provisioning error', async () => {
    const failed = livePool({
      provisioningState: 'Failed',
      status: { provisioningError: { code: 'VMExtensionProvisioningError', message: 'CSE failed.' } }
    })
    const a = arm({ lro: { finalState: 'Failed' }, laterGets: [failed] })
    const log = captureLog()
    await expect(ensureNodePool(a.clients, settings(), opts(log))).rejects.toThrow(
      new NodePoolError(
        `node pool rdmapool: provisioning Failed: VMExtensionProvisioningError: CSE failed.. ${DELETE}`
      )
    )
    expect(a.calls).toEqual([GET, PUT, GET])
    expect(log.lines).toHaveLength(1)
  })

  it('a failed operation is explained by the pool’s provisioning error first', async () => {
    const failed = livePool({
      provisioningState: 'Failed',
      status: { provisioningError: { code: 'AllocationFailed', message: 'No capacity in the zone.' } }
    })
    const a = arm({
      lro: {
        end: { fail: new Error('The long-running operation has failed. Other. Text.'), resource: failed }
      }
    })
    await expect(ensureNodePool(a.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError(
        `node pool rdmapool: provisioning Failed: AllocationFailed: No capacity in the zone.. ${DELETE}`
      )
    )
    expect(a.calls).toEqual([GET, PUT, GET])
  })

  it('then by the code and message in the LRO error', async () => {
    const a = arm({
      lro: {
        end: {
          fail: new Error(
            'The long-running operation has failed. QuotaExceeded. Operation could not be completed.\nDetails follow.'
          )
        }
      }
    })
    await expect(ensureNodePool(a.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError(
        `node pool rdmapool: provisioning Failed: QuotaExceeded: Operation could not be completed.\nDetails follow.. ${DELETE}`
      )
    )
  })

  it('then by the ARM error itself; the state defaults to Failed when the pool cannot be read', async () => {
    const a = arm({
      lro: { end: { fail: armFail(500, 'InternalServerError', 'poll failed') } },
      laterGets: [armFail(500, 'InternalServerError', 'read failed')]
    })
    await expect(ensureNodePool(a.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError(
        `node pool rdmapool: provisioning Failed: InternalServerError: poll failed. ${DELETE}`
      )
    )
    const gone = arm({ lro: { end: { fail: 'text' } }, laterGets: [undefined] })
    await expect(ensureNodePool(gone.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError(`node pool rdmapool: provisioning Failed: Unknown: no message from ARM. ${DELETE}`)
    )
    const canceled = arm({
      lro: { end: { fail: new Error('The long-running operation has failed') } },
      laterGets: [livePool({ provisioningState: 'Canceled' })]
    })
    await expect(ensureNodePool(canceled.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError(
        `node pool rdmapool: provisioning Canceled: Unknown: The long-running operation has failed. ${DELETE}`
      )
    )
  })
})

describe('ensureNodePool: a refused PUT', () => {
  const refused = async (e: Error) => {
    const a = arm({ putError: e })
    const o = opts(captureLog())
    const err = await ensureNodePool(a.clients, settings(), o).catch(x => x)
    expect(a.calls).toEqual([GET, PUT])
    expect(o.events).toEqual([expect.stringMatching(/^submit /)])
    expect(err).toBeInstanceOf(NodePoolError)
    return err.message as string
  }

  it('for quota says to request more', async () => {
    const more =
      '. Request a quota increase for this VM family in the region, or pick another vm-size/location.'
    expect(await refused(armFail(409, 'QuotaExceeded', 'Operation could not be completed'))).toBe(
      `node pool rdmapool: create request failed: HTTP 409 QuotaExceeded: Operation could not be completed${more}`
    )
    expect(
      await refused(armFail(400, 'OperationNotAllowed', 'exceeds approved Total Regional Cores quota'))
    ).toBe(
      `node pool rdmapool: create request failed: HTTP 400 OperationNotAllowed: exceeds approved Total Regional Cores quota${more}`
    )
  })

  it('for an unavailable size says so', async () => {
    const sku = '. The VM size is not offered in this region/zone for the subscription.'
    expect(await refused(armFail(400, 'SkuNotAvailable', 'not in eastus'))).toBe(
      `node pool rdmapool: create request failed: HTTP 400 SkuNotAvailable: not in eastus${sku}`
    )
    expect(await refused(armFail(400, 'VMSizeNotAvailableForSubscription', 'no'))).toBe(
      `node pool rdmapool: create request failed: HTTP 400 VMSizeNotAvailableForSubscription: no${sku}`
    )
  })

  it('otherwise quotes ARM alone', async () => {
    expect(await refused(armFail(400, 'InvalidParameter', 'bad count'))).toBe(
      'node pool rdmapool: create request failed: HTTP 400 InvalidParameter: bad count'
    )
  })
})

describe('ensureNodePool: a pool made by another run meanwhile (412)', () => {
  it('is reused if compatible, and the announced create withdrawn', async () => {
    const theirs = livePool({
      provisioningState: 'Succeeded',
      tags: { 'aks-rdma-action-created-by': 'other' }
    })
    const a = arm({ appearsBeforePut: theirs })
    const log = captureLog()
    const o = opts(log)
    expect(await ensureNodePool(a.clients, settings(), o)).toEqual({
      action: 'reused',
      pool: theirs,
      warnings: []
    })
    expect(a.calls).toEqual([GET, PUT, GET])
    expect(o.events).toEqual([expect.stringMatching(/^submit /), 'refused'])
    expect(a.pollOptions).toEqual([])
    expect(log.lines).toEqual([
      'info: node pool rdmapool: absent; creating 2× Standard_ND96isr_H100_v5 (Ubuntu, gpuProfile.driver None) in rg/aks1',
      'info: node pool rdmapool: appeared while creating (HTTP 412 on If-None-Match); reusing it if compatible',
      'info: node pool rdmapool: reusing the existing pool (2× Standard_ND96isr_H100_v5, Succeeded); no changes made'
    ])
  })

  it('is refused when it differs in a field fixed at creation', async () => {
    const a = arm({ appearsBeforePut: livePool({ vmSize: 'Standard_NC6' }) })
    const o = opts(captureLog())
    await expect(ensureNodePool(a.clients, settings(), o)).rejects.toThrow(
      /differs in fields fixed at creation/
    )
    expect(o.events).toEqual([expect.stringMatching(/^submit /), 'refused'])
  })

  it('a pool gone again is an error; works without the callbacks', async () => {
    const a = arm({ putError: armFail(412, 'PreconditionFailed', 'exists'), laterGets: [undefined] })
    await expect(
      ensureNodePool(a.clients, settings(), { log: captureLog(), timeoutMs: 600_000, pollIntervalMs: 5 })
    ).rejects.toThrow(
      new NodePoolError(
        'node pool rdmapool: the create was refused with HTTP 412 (pool exists) but the pool cannot be read'
      )
    )
    expect(a.calls).toEqual([GET, PUT, GET])
  })
})

describe('ensureNodePool: the step timeout', () => {
  it('aborts the wait when the step time (counted from the start) is spent, with the last state and the command', async () => {
    // The first GET takes 10 s of the 10.02 s: 20 ms are left for the create (the progress reads take 10 s each).
    const a = arm({ getMs: 10_000, lro: { states: ['Creating', 'Scaling'], end: 'hang' } })
    const err = await ensureNodePool(a.clients, settings(), opts(captureLog(), { timeoutMs: 10_020 })).catch(
      e => e
    )
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(err.message).toBe(
      `node pool rdmapool: timed out after 30s; last state seen: Scaling. The pool may still finish; check it with az aks nodepool show ${NP}`
    )
  })

  it('a step time already spent still leaves the create 1 ms', async () => {
    const a = arm({ getMs: 20_000, lro: { end: 'hang' } })
    const err = await ensureNodePool(a.clients, settings(), opts(captureLog(), { timeoutMs: 10_000 })).catch(
      e => e
    )
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(err.message).toMatch(/^node pool rdmapool: timed out after 20s; last state seen: Creating\. /)
  })
})

describe('ensureNodePool: a cancelled run', () => {
  afterEach(() => resetCancellation())

  it('stops waiting for the pool at once, its create submitted, naming its state and the command', async () => {
    const a = arm({ lro: { states: ['Creating'], end: 'hang' } })
    const submitted: unknown[] = []
    const running = ensureNodePool(
      a.clients,
      settings(),
      opts(captureLog(), { timeoutMs: 3_600_000, onCreateSubmit: x => submitted.push(x) })
    ).catch(e => e)
    await new Promise(r => setTimeout(r, 0))
    cancelRun('SIGTERM')
    const err = await running
    expect(err).toBeInstanceOf(RunCancelledError)
    expect(err.message).toBe(
      `cancelled by SIGTERM: stopped while node pool rdmapool provisions (its create was submitted; Creating in Azure: az aks nodepool show ${NP})`
    )
    expect(submitted).toHaveLength(1)
  })
})

describe('ensureNodePool: an existing pool', () => {
  it('is reused without a write', async () => {
    const pool = livePool()
    const a = arm({ pool })
    const log = captureLog()
    const o = opts(log)
    expect(await ensureNodePool(a.clients, settings(), o)).toEqual({ action: 'reused', pool, warnings: [] })
    expect(a.calls).toEqual([GET])
    expect(o.events).toEqual([])
    expect(log.lines).toEqual([
      'info: node pool rdmapool: reusing the existing pool (2× Standard_ND96isr_H100_v5, Succeeded); no changes made'
    ])
  })

  it('found by the precheck is not read again; a state-less one counts as Succeeded', async () => {
    const pool = livePool({ provisioningState: undefined })
    const a = arm({ pool })
    const log = captureLog()
    expect(
      (await ensureNodePool(a.clients, settings(), opts(log, { precheck: { state: 'present', pool } }))).pool
    ).toBe(pool)
    expect(a.calls).toEqual([])
    expect(log.lines).toEqual([
      'info: node pool rdmapool: reusing the existing pool (2× Standard_ND96isr_H100_v5, Succeeded); no changes made'
    ])
  })

  it('warns about each field it differs in that could change in place, and changes nothing', async () => {
    const pool = livePool({ count: 3, nodeLabels: { team: 'ml' } })
    const a = arm({ pool })
    const log = captureLog()
    const r = await ensureNodePool(a.clients, settings(), opts(log))
    const warnings = [
      'node pool rdmapool: existing pool has count 3, inputs ask for 2; the action does not change existing pools (set node-count: 3 to match the pool (it has more nodes than node-count; nothing is removed))',
      `node pool rdmapool: existing pool has nodeLabels team=ml, inputs ask for (none); the action does not change existing pools (\`az aks nodepool update ${NP} --labels ''\`)`
    ]
    expect(r).toEqual({ action: 'reused', pool, warnings })
    expect(log.lines).toEqual([
      ...warnings.map(w => `warning: ${w}`),
      'info: node pool rdmapool: reusing the existing pool (3× Standard_ND96isr_H100_v5, Succeeded); no changes made'
    ])
    expect(a.calls).toEqual([GET])
    // A live pool is never to be scaled down: no scale command for a pool larger than node-count.
    expect(warnings.some(w => / scale /.test(w))).toBe(false)
  })

  it('is refused when incompatible or untolerated, before any write', async () => {
    const a = arm({ pool: livePool({ osSKU: 'AzureLinux' }) })
    await expect(ensureNodePool(a.clients, settings(), opts(captureLog()))).rejects.toThrow(
      /^node pool rdmapool: an existing pool differs in fields fixed at creation.*\n {2}- osSKU: wanted Ubuntu, found AzureLinux\n/
    )
    const b = arm({ pool: livePool({ nodeTaints: ['x=1:NoExecute'] }) })
    await expect(ensureNodePool(b.clients, settings(), opts(captureLog()))).rejects.toThrow(
      /carry taint x=1:NoExecute/
    )
    expect([...a.calls, ...b.calls]).toEqual([GET, GET])
  })

  it('in state Failed is a failure with ARM’s provisioning error', async () => {
    const failed = livePool({
      provisioningState: 'Failed',
      status: { provisioningError: { code: 'ReconcileVMSSAgentPoolFailed', message: 'Boom.' } }
    })
    const a = arm({ pool: failed })
    await expect(ensureNodePool(a.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError(
        `node pool rdmapool: provisioning Failed: ReconcileVMSSAgentPoolFailed: Boom.. ${DELETE}`
      )
    )
    expect(a.calls).toEqual([GET, GET])
  })

  it('in a transitional state is waited for until it settles, then reused', async () => {
    const a = arm({
      pool: livePool({ provisioningState: 'Scaling' }),
      getMs: 1000,
      laterGets: [
        livePool({ provisioningState: 'Scaling' }),
        livePool({ provisioningState: 'Upgrading' }),
        livePool()
      ]
    })
    const log = captureLog()
    const r = await ensureNodePool(a.clients, settings(), opts(log))
    expect(r).toEqual({ action: 'reused', pool: livePool(), warnings: [] })
    expect(a.calls).toEqual([GET, GET, GET, GET])
    expect(log.lines).toEqual([
      'info: node pool rdmapool: exists and is Scaling; waiting for it to settle',
      'info: node pool rdmapool: Scaling (2s elapsed)',
      'info: node pool rdmapool: Upgrading (3s elapsed)',
      'info: node pool rdmapool: Succeeded (4s elapsed)',
      'info: node pool rdmapool: reusing the existing pool (2× Standard_ND96isr_H100_v5, Succeeded); no changes made'
    ])
  })

  it('settles on a pool without a state or in a steady state other than Succeeded', async () => {
    for (const after of [
      livePool({ provisioningState: undefined }),
      livePool({ provisioningState: 'Canceled' })
    ]) {
      const a = arm({ pool: livePool({ provisioningState: 'Updating' }), laterGets: [after] })
      const r = await ensureNodePool(a.clients, settings(), opts(captureLog()))
      expect(r.pool).toBe(after)
      expect(a.calls).toEqual([GET, GET])
    }
  })

  it('a pool that disappears or fails while settling is an error', async () => {
    const a = arm({ pool: livePool({ provisioningState: 'Creating' }), laterGets: [undefined] })
    await expect(ensureNodePool(a.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError('node pool rdmapool: disappeared while waiting for it (was Creating)')
    )
    const failed = livePool({ provisioningState: 'Failed' })
    const b = arm({ pool: livePool({ provisioningState: 'Creating' }), laterGets: [failed, failed] })
    await expect(ensureNodePool(b.clients, settings(), opts(captureLog()))).rejects.toThrow(
      new NodePoolError(`node pool rdmapool: provisioning Failed: Unknown: no message from ARM. ${DELETE}`)
    )
    expect(b.calls).toEqual([GET, GET, GET])
  })

  it('settling that outlasts the step times out, polling at the pool interval', async () => {
    const a = arm({ pool: livePool({ provisioningState: 'Scaling' }) })
    const err = await ensureNodePool(
      a.clients,
      settings(),
      opts(captureLog(), { pollIntervalMs: 5000, timeoutMs: 4000 })
    ).catch(e => e)
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(err.message).toBe('node pool rdmapool: timed out after 0ms; last state seen: Scaling')
    expect(a.calls).toEqual([GET, GET])
  })
})
