// The AKS cluster step (ensureCluster, desiredCluster) over an in-memory ARM: an existing cluster
// reused without any write (and refused when Failed), a missing one or a missing resource group
// refused with what to fix, and with create-cluster the race-free create (If-None-Match: *)
// announced before the PUT, its exact body and LRO options, the progress lines, a 412 race turned
// into a reuse, a refused or failed create, and the step timeout. Date.now is a fake clock so
// elapsed times are exact; the LRO is a fake PollerLike shaped as @azure/core-lro's (arm-resource.ts).
import { describe, expect, it } from '@jest/globals'
import type { ManagedCluster } from '@azure/arm-containerservice'
import { desiredCluster, ensureCluster, type ClusterOptions } from '../../../src/azure/cluster.js'
import { AzureWaitTimeoutError } from '../../../src/azure/wait.js'
import { applySettings } from '../../support/apply-settings.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { abortError, armFail } from '../../support/arm-errors.js'
import { armResource, type ArmScript } from '../../support/arm-resource.js'
import { useFixedNow } from '../../support/fixed-now.js'
import { recordingCreateOptions, SYSTEM_POOL_PROFILE } from '../../support/aks-create.js'

const SUB = '00000000-0000-0000-0000-000000000000'
const settings = (over: Record<string, string> = {}) => applySettings(over, { GITHUB_RUN_ID: '5' })
const createSettings = (over: Record<string, string> = {}) =>
  settings({ 'create-cluster': 'true', location: 'eastus', ...over })

const now = useFixedNow(1_000_000)

/** ARM with the cluster rg/aks1 (`cluster`), scripted as armResource says; calls `GET rg/aks1`, `PUT rg/aks1`. */
const arm = (o: ArmScript<ManagedCluster> & { cluster?: ManagedCluster | Error } = {}) =>
  armResource<ManagedCluster>({ group: 'managedClusters', clock: now, resource: o.cluster, ...o })

const opts = (
  log: CapturedLog,
  more: Partial<ClusterOptions> = {}
): ClusterOptions & { events: string[] } => ({
  ...recordingCreateOptions(log, 60_000),
  ...more
})

describe('desiredCluster', () => {
  it('needs a location', () => {
    expect(() => desiredCluster(settings())).toThrow(
      new Error('create-cluster: location is required to create cluster aks1')
    )
  })

  it('is the minimal cluster: system pool, managed identity, tagged with the run', () => {
    const s = createSettings({ 'kubernetes-version': '1.33' })
    expect(desiredCluster(s)).toEqual({
      location: 'eastus',
      tags: { 'aks-rdma-action-managed': 'true', 'aks-rdma-action-created-by': s.runId },
      identity: { type: 'SystemAssigned' },
      kubernetesVersion: '1.33',
      dnsPrefix: 'aks1',
      agentPoolProfiles: [SYSTEM_POOL_PROFILE]
    })
  })
})

describe('ensureCluster: an existing cluster', () => {
  it('is reused unchanged, with its state and current Kubernetes version logged; no write', async () => {
    const live: ManagedCluster = {
      location: 'eastus',
      provisioningState: 'Succeeded',
      currentKubernetesVersion: '1.33.2',
      kubernetesVersion: '1.33'
    }
    const a = arm({ cluster: live })
    const log = captureLog()
    const o = opts(log)
    expect(await ensureCluster(a.clients, createSettings(), o)).toEqual({ action: 'reused', cluster: live })
    expect(a.calls).toEqual(['GET rg/aks1'])
    expect(o.events).toEqual([])
    expect(log.lines).toEqual([
      'info: cluster rg/aks1: exists (Succeeded, Kubernetes 1.33.2); reusing it unchanged'
    ])
  })

  it('without a provisioning state counts as Succeeded; the version falls back to kubernetesVersion, then ?', async () => {
    const log = captureLog()
    await ensureCluster(
      arm({ cluster: { location: 'eastus', kubernetesVersion: '1.32' } }).clients,
      settings(),
      opts(log)
    )
    await ensureCluster(
      arm({ cluster: { location: 'eastus', provisioningState: 'Updating' } }).clients,
      settings(),
      opts(log)
    )
    expect(log.lines).toEqual([
      'info: cluster rg/aks1: exists (Succeeded, Kubernetes 1.32); reusing it unchanged',
      'info: cluster rg/aks1: exists (Updating, Kubernetes ?); reusing it unchanged'
    ])
  })

  it('in provisioning state Failed is refused with the command that repairs it; no write', async () => {
    const a = arm({
      cluster: { location: 'eastus', provisioningState: 'Failed', currentKubernetesVersion: '1.33.2' }
    })
    const log = captureLog()
    await expect(ensureCluster(a.clients, createSettings(), opts(log))).rejects.toThrow(
      new Error(
        `cluster rg/aks1: the cluster is in provisioning state Failed; repair it (az aks update --subscription ${SUB} --resource-group rg --name aks1) before running the action`
      )
    )
    expect(a.calls).toEqual(['GET rg/aks1'])
    expect(log.lines).toEqual([
      'info: cluster rg/aks1: exists (Failed, Kubernetes 1.33.2); reusing it unchanged'
    ])
  })
})

describe('ensureCluster: no cluster', () => {
  it('without create-cluster is an error naming the subscription and the inputs; no write', async () => {
    const a = arm()
    const log = captureLog()
    await expect(ensureCluster(a.clients, settings(), opts(log))).rejects.toThrow(
      new Error(
        'cluster rg/aks1: not found in subscription sub-1. Check cluster-name and resource-group, or set create-cluster: true to create it'
      )
    )
    expect(a.calls).toEqual(['GET rg/aks1'])
    expect(log.lines).toEqual([])
  })

  it('a missing resource group is an error saying to create it, even with create-cluster', async () => {
    const a = arm({
      cluster: armFail(404, 'ResourceGroupNotFound', "Resource group 'rg' could not be found.")
    })
    const o = opts(captureLog())
    await expect(ensureCluster(a.clients, createSettings(), o)).rejects.toThrow(
      new Error(
        'cluster aks1: resource group rg does not exist in subscription sub-1; create it first (az group create) or fix resource-group'
      )
    )
    expect(a.calls).toEqual(['GET rg/aks1'])
    expect(o.events).toEqual([])
  })

  it('a GET that fails otherwise is an error quoting ARM; no write', async () => {
    const a = arm({ cluster: armFail(500, 'InternalServerError', 'Something went wrong') })
    await expect(ensureCluster(a.clients, createSettings(), opts(captureLog()))).rejects.toThrow(
      new Error('cluster rg/aks1: reading it failed: HTTP 500 InternalServerError: Something went wrong')
    )
    expect(a.calls).toEqual(['GET rg/aks1'])
  })

  it('a 403 is not taken for an absent cluster', async () => {
    const a = arm({ cluster: armFail(403, 'AuthorizationFailed', 'no access') })
    await expect(ensureCluster(a.clients, createSettings(), opts(captureLog()))).rejects.toThrow(
      /^cluster rg\/aks1: reading it failed: HTTP 403 AuthorizationFailed: no access/
    )
    expect(a.calls).toEqual(['GET rg/aks1'])
  })
})

describe('ensureCluster: create-cluster', () => {
  it('announces the create, then PUTs the desired body with If-None-Match: * and logs progress and the end', async () => {
    const s = createSettings({ 'kubernetes-version': '1.33' })
    const a = arm({ getMs: 1000, lro: { polls: ['running', undefined], pollMs: 2000 } })
    const log = captureLog()
    const events: string[] = []
    const o = opts(log, {
      pollIntervalMs: 7,
      onCreateSubmit: x => events.push(`submit ${JSON.stringify(x)} after ${a.calls.join(', ')}`)
    })
    const r = await ensureCluster(a.clients, s, o)
    expect(r.action).toBe('created')
    expect(r.cluster).toEqual({ ...desiredCluster(s), provisioningState: 'Succeeded' })
    expect(events).toEqual([
      `submit ${JSON.stringify({ resourceGroup: 'rg', cluster: 'aks1', createdBy: s.runId })} after GET rg/aks1`
    ])
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1'])
    expect(a.bodies).toEqual([desiredCluster(s)])
    expect(a.putOptions).toEqual([
      { ifNoneMatch: '*', updateIntervalInMs: 7, abortSignal: expect.any(AbortSignal) }
    ])
    // The wait's signal: the step's timeout, or the run's cancellation (never the PUT's own).
    expect(a.pollOptions).toEqual([{ abortSignal: expect.any(AbortSignal) }])
    expect(log.lines).toEqual([
      'info: cluster rg/aks1: absent; creating it in eastus (system pool Standard_D4s_v5 ×1..2, Kubernetes 1.33)',
      'info: cluster rg/aks1: running (3s elapsed)',
      'info: cluster rg/aks1: Creating (5s elapsed)',
      'info: cluster rg/aks1: created (7s)'
    ])
  })

  it('polls every 15 s by default; without a version the line names none', async () => {
    const a = arm()
    const log = captureLog()
    const o = opts(log)
    delete o.pollIntervalMs
    await ensureCluster(a.clients, createSettings(), o)
    expect(a.putOptions[0]).toMatchObject({ updateIntervalInMs: 15_000 })
    expect(log.lines).toEqual([
      'info: cluster rg/aks1: absent; creating it in eastus (system pool Standard_D4s_v5 ×1..2)',
      'info: cluster rg/aks1: created (0ms)'
    ])
  })

  it('works without the callbacks', async () => {
    const a = arm({ appearsBeforePut: { location: 'eastus', provisioningState: 'Creating' } })
    const log = captureLog()
    const r = await ensureCluster(a.clients, createSettings(), { log, timeoutMs: 60_000, pollIntervalMs: 5 })
    expect(r.action).toBe('reused')
    const b = arm()
    expect((await ensureCluster(b.clients, createSettings(), { log, timeoutMs: 60_000 })).action).toBe(
      'created'
    )
  })

  it('reads the cluster when the poller gives no result', async () => {
    const a = arm({ lro: { noResult: true } })
    const r = await ensureCluster(a.clients, createSettings(), opts(captureLog()))
    expect(r.cluster.provisioningState).toBe('Succeeded')
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1', 'GET rg/aks1'])
  })

  it('a success whose cluster cannot be read is an error', async () => {
    const a = arm({ lro: { noResult: true }, laterGets: [undefined] })
    const log = captureLog()
    await expect(ensureCluster(a.clients, createSettings(), opts(log))).rejects.toThrow(
      new Error('cluster rg/aks1: creation reported success but the cluster cannot be read')
    )
    expect(log.lines).not.toContainEqual(expect.stringMatching(/created/))
  })

  it('a cluster made by another run meanwhile (412) is reused, and the announced create withdrawn', async () => {
    const theirs: ManagedCluster = {
      location: 'eastus',
      provisioningState: 'Creating',
      tags: { 'aks-rdma-action-created-by': 'other' }
    }
    const a = arm({ appearsBeforePut: theirs })
    const log = captureLog()
    const o = opts(log)
    expect(await ensureCluster(a.clients, createSettings(), o)).toEqual({ action: 'reused', cluster: theirs })
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1', 'GET rg/aks1'])
    expect(o.events).toEqual([expect.stringMatching(/^submit /), 'refused'])
    expect(a.pollOptions).toEqual([])
    expect(log.lines).toEqual([
      'info: cluster rg/aks1: absent; creating it in eastus (system pool Standard_D4s_v5 ×1..2)',
      'info: cluster rg/aks1: appeared while creating (HTTP 412); reusing it unchanged'
    ])
  })

  it('a 412 for a cluster gone again is the create failure', async () => {
    const a = arm({ putError: armFail(412, 'PreconditionFailed', 'exists'), laterGets: [undefined] })
    const o = opts(captureLog())
    await expect(ensureCluster(a.clients, createSettings(), o)).rejects.toThrow(
      new Error('cluster rg/aks1: create request failed: HTTP 412 PreconditionFailed: exists')
    )
    expect(o.events).toEqual([expect.stringMatching(/^submit /), 'refused'])
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1', 'GET rg/aks1'])
  })

  it('another refusal of the PUT is an error quoting ARM; the create is not withdrawn nor read again', async () => {
    const a = arm({ putError: armFail(400, 'InvalidParameter', 'dnsPrefix is invalid') })
    const o = opts(captureLog())
    await expect(ensureCluster(a.clients, createSettings(), o)).rejects.toThrow(
      new Error('cluster rg/aks1: create request failed: HTTP 400 InvalidParameter: dnsPrefix is invalid')
    )
    expect(o.events).toEqual([expect.stringMatching(/^submit /)])
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1'])
  })

  it('a failed operation is an error with the state ARM reports now', async () => {
    const a = arm({
      lro: {
        end: { fail: new Error('The long-running operation has failed. QuotaExceeded. Not enough cores') }
      }
    })
    const log = captureLog()
    await expect(ensureCluster(a.clients, createSettings(), opts(log))).rejects.toThrow(
      new Error(
        'cluster rg/aks1: creation failed (Failed): The long-running operation has failed. QuotaExceeded. Not enough cores'
      )
    )
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1', 'GET rg/aks1'])
    // The last progress event comes with the poller done: no line for it.
    expect(log.lines).toEqual([
      'info: cluster rg/aks1: absent; creating it in eastus (system pool Standard_D4s_v5 ×1..2)'
    ])
  })

  it('the state defaults to Failed when the cluster cannot be read or has none', async () => {
    const boom = { fail: new Error('The long-running operation has failed') }
    const unreadable = arm({ lro: { end: boom }, laterGets: [armFail(500, 'InternalServerError', 'x')] })
    await expect(ensureCluster(unreadable.clients, createSettings(), opts(captureLog()))).rejects.toThrow(
      new Error('cluster rg/aks1: creation failed (Failed): The long-running operation has failed')
    )
    const gone = arm({ lro: { end: boom }, laterGets: [undefined] })
    await expect(ensureCluster(gone.clients, createSettings(), opts(captureLog()))).rejects.toThrow(
      new Error('cluster rg/aks1: creation failed (Failed): The long-running operation has failed')
    )
    const canceled = arm({
      lro: { end: boom },
      laterGets: [{ location: 'eastus', provisioningState: 'Canceled' }]
    })
    await expect(ensureCluster(canceled.clients, createSettings(), opts(captureLog()))).rejects.toThrow(
      new Error('cluster rg/aks1: creation failed (Canceled): The long-running operation has failed')
    )
  })

  it('a failure that is not an Error is quoted as it is', async () => {
    const a = arm({ lro: { end: { fail: 'plain text' } } })
    await expect(ensureCluster(a.clients, createSettings(), opts(captureLog()))).rejects.toThrow(
      new Error('cluster rg/aks1: creation failed (Failed): plain text')
    )
  })
})

describe('ensureCluster: the step timeout', () => {
  /** Runs the create to its timeout: an AzureWaitTimeoutError after one GET and the PUT; its message. */
  const timedOut = async (a: ReturnType<typeof arm>, more: Partial<ClusterOptions> = {}) => {
    const err = await ensureCluster(a.clients, createSettings(), opts(captureLog(), more)).catch(e => e)
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1'])
    return err.message as string
  }

  it('aborts the wait when the step time (counted from the start) is spent, naming the last state and the command', async () => {
    // The GET takes 10 s of the 10.02 s: 20 ms are left for the create.
    const a = arm({ getMs: 10_000, lro: { polls: ['running'], end: 'hang' } })
    expect(await timedOut(a, { timeoutMs: 10_020 })).toBe(
      `cluster rg/aks1: timed out after 10s; last state seen: running. The cluster may still finish; check it with az aks show --subscription ${SUB} --resource-group rg --name aks1`
    )
  })

  it('an abort that rejects with another error is still the timeout', async () => {
    const a = arm({ lro: { end: 'hang', onAbort: new Error('request cancelled'), noState: true } })
    expect(await timedOut(a, { timeoutMs: 20 })).toBe(
      `cluster rg/aks1: timed out after 0ms; last state seen: Creating. The cluster may still finish; check it with az aks show --subscription ${SUB} --resource-group rg --name aks1`
    )
  })

  it('an AbortError from the poller before the step time is spent is the timeout too', async () => {
    const a = arm({ lro: { polls: ['running'], end: { fail: abortError() } } })
    expect(await timedOut(a)).toMatch(/^cluster rg\/aks1: timed out after 0ms; last state seen: running\. /)
  })

  it('a step time already spent still leaves the create at least 1 ms', async () => {
    await timedOut(arm({ getMs: 20_000, lro: { end: 'hang' } }), { timeoutMs: 10_000 })
  })
})
