// The AKS cluster step (ensureCluster, desiredCluster) over an in-memory ARM: an existing cluster
// reused without any write (and refused when Failed), a missing one or a missing resource group
// refused with what to fix, and with create-cluster the race-free create (If-None-Match: *)
// announced before the PUT, its exact body and LRO options, the progress lines, a 412 race turned
// into a reuse, a refused or failed create, and the step timeout. Date.now is a fake clock so
// elapsed times are exact; the LRO is a fake PollerLike shaped as @azure/core-lro's.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { RestError } from '@azure/core-rest-pipeline'
import type { ManagedCluster } from '@azure/arm-containerservice'
import type { ArmClients } from '../../../src/azure/clients.js'
import { desiredCluster, ensureCluster, type ClusterOptions } from '../../../src/azure/cluster.js'
import { AzureWaitTimeoutError } from '../../../src/azure/wait.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'

const SUB = '00000000-0000-0000-0000-000000000000'
const settings = (over: Record<string, string> = {}) =>
  readSettings(reader({ ...VALID_APPLY, ...over }), { GITHUB_RUN_ID: '5' }).settings
const createSettings = (over: Record<string, string> = {}) =>
  settings({ 'create-cluster': 'true', location: 'eastus', ...over })

/** An ARM error as the SDK throws it: a RestError with the status and ARM's error body. */
function armFail(statusCode: number, code: string, message: string): RestError {
  return Object.assign(new RestError(message, { statusCode, code }), {
    details: { error: { code, message } }
  })
}
const notFound = () =>
  armFail(
    404,
    'ResourceNotFound',
    "The Resource 'Microsoft.ContainerService/managedClusters/aks1' was not found."
  )

let now = 0
beforeEach(() => {
  now = 1_000_000
  jest.spyOn(Date, 'now').mockImplementation(() => now)
})
afterEach(() => {
  jest.restoreAllMocks()
})

interface Lro {
  /** Operation statuses reported by the polls before the last one (undefined: no status). */
  polls?: Array<string | undefined>
  /**
   * How pollUntilDone ends: success; a rejection (an LRO failure marks the operation failed, an
   * AbortError leaves its state); or `hang`: only the abort signal ends it (a success after 300 ms).
   */
  end?: 'succeeded' | 'hang' | { fail: unknown }
  /** What pollUntilDone rejects with when aborted (default an AbortError, as core-lro does). */
  onAbort?: Error
  /** poller.result stays undefined after success. */
  noResult?: boolean
  /** No operationState at all (a poller that never reported one). */
  noState?: boolean
  /** Each poll takes this long on the fake clock. */
  pollMs?: number
}

interface ArmOptions {
  /** The cluster in rg, or what its GET throws. */
  cluster?: ManagedCluster | Error
  /** Another run creates this cluster just before our PUT (the PUT then gets 412). */
  appearsBeforePut?: ManagedCluster
  /** What GETs after the PUT return, in turn (default: the stored cluster). */
  laterGets?: Array<ManagedCluster | Error | undefined>
  /** The PUT fails with this at submission. */
  putError?: Error
  lro?: Lro
  /** A GET takes this long on the fake clock. */
  getMs?: number
}

const abortError = () => Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' })

function arm(o: ArmOptions = {}) {
  const calls: string[] = []
  let stored: ManagedCluster | Error | undefined = o.cluster
  let puts = 0
  const laterGets = [...(o.laterGets ?? [])]
  const putOptions: Array<Record<string, unknown>> = []
  const pollOptions: Array<Record<string, unknown> | undefined> = []
  const bodies: ManagedCluster[] = []
  const managedClusters = {
    get: async (rg: string, name: string) => {
      calls.push(`GET ${rg}/${name}`)
      now += o.getMs ?? 0
      const v = puts && laterGets.length ? laterGets.shift() : stored
      if (v === undefined) throw notFound()
      if (v instanceof Error) throw v
      return v
    },
    createOrUpdate: (rg: string, name: string, body: ManagedCluster, opts: Record<string, unknown>) => {
      calls.push(`PUT ${rg}/${name}`)
      puts++
      bodies.push(body)
      putOptions.push(opts)
      if (o.appearsBeforePut) stored = o.appearsBeforePut
      const lro = o.lro ?? {}
      const callbacks: Array<(s: { status?: string }) => void> = []
      const progress = () => {
        for (const cb of callbacks) cb(p.operationState ?? {})
      }
      const p = {
        isDone: false,
        operationState: undefined as { status?: string; result?: ManagedCluster } | undefined,
        result: undefined as ManagedCluster | undefined,
        submitted: async () => {
          const existing = stored !== undefined && !(stored instanceof Error)
          if (o.putError) throw o.putError
          if (existing && opts.ifNoneMatch === '*')
            throw armFail(412, 'PreconditionFailed', 'The resource already exists (If-None-Match: *).')
          stored = { ...body, provisioningState: 'Creating' }
          if (!lro.noState) p.operationState = { status: 'running' }
        },
        onProgress: (cb: (s: { status?: string }) => void) => {
          callbacks.push(cb)
          return () => undefined
        },
        pollUntilDone: async (po?: { abortSignal?: AbortSignal }) => {
          pollOptions.push(po)
          for (const status of lro.polls ?? []) {
            now += lro.pollMs ?? 0
            if (!lro.noState) p.operationState = { status }
            progress()
          }
          const end = lro.end ?? 'succeeded'
          if (end === 'hang') {
            const signal = po?.abortSignal
            if (!signal) throw new Error('test: pollUntilDone without an abort signal would never end')
            await new Promise<void>((resolve, reject) => {
              const t = setTimeout(resolve, 300)
              const onAbort = () => {
                clearTimeout(t)
                reject(lro.onAbort ?? abortError())
              }
              // Aborted already (a busy machine spent the time before this wait): end now.
              if (signal.aborted) onAbort()
              else signal.addEventListener('abort', onAbort)
            })
          }
          now += lro.pollMs ?? 0
          p.isDone = true
          if (typeof end === 'object') {
            if ((end.fail as Error).name !== 'AbortError') {
              stored = { ...(stored as ManagedCluster), provisioningState: 'Failed' }
              p.operationState = { status: 'failed' }
              progress()
            }
            throw end.fail
          }
          stored = { ...(stored as ManagedCluster), provisioningState: 'Succeeded' }
          if (!lro.noResult) p.result = stored
          p.operationState = { status: 'succeeded', result: p.result }
          progress()
          return p.result
        }
      }
      return p
    }
  }
  const clients = { containerService: { managedClusters }, subscriptionId: 'sub-1' } as unknown as ArmClients
  return { clients, calls, putOptions, pollOptions, bodies }
}

function opts(log: CapturedLog, more: Partial<ClusterOptions> = {}): ClusterOptions & { events: string[] } {
  const events: string[] = []
  return {
    log,
    timeoutMs: 60_000,
    pollIntervalMs: 5,
    onCreateSubmit: s => events.push(`submit ${JSON.stringify(s)}`),
    onCreateRefused: () => events.push('refused'),
    events,
    ...more
  }
}

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
      agentPoolProfiles: [
        {
          name: 'system',
          mode: 'System',
          vmSize: 'Standard_D4s_v5',
          count: 1,
          minCount: 1,
          maxCount: 2,
          enableAutoScaling: true,
          osType: 'Linux'
        }
      ]
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
    expect(a.pollOptions).toEqual([{ abortSignal: a.putOptions[0].abortSignal }])
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
  it('aborts the wait when the step time (counted from the start) is spent, naming the last state and the command', async () => {
    // The GET takes 10 s of the 10.02 s: 20 ms are left for the create.
    const a = arm({ getMs: 10_000, lro: { polls: ['running'], end: 'hang' } })
    const log = captureLog()
    const err = await ensureCluster(a.clients, createSettings(), opts(log, { timeoutMs: 10_020 })).catch(
      e => e
    )
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(err.message).toBe(
      `cluster rg/aks1: timed out after 10s; last state seen: running. The cluster may still finish; check it with az aks show --subscription ${SUB} --resource-group rg --name aks1`
    )
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1'])
  })

  it('an abort that rejects with another error is still the timeout', async () => {
    const a = arm({ lro: { end: 'hang', onAbort: new Error('request cancelled'), noState: true } })
    const err = await ensureCluster(a.clients, createSettings(), opts(captureLog(), { timeoutMs: 20 })).catch(
      e => e
    )
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(err.message).toBe(
      `cluster rg/aks1: timed out after 0ms; last state seen: Creating. The cluster may still finish; check it with az aks show --subscription ${SUB} --resource-group rg --name aks1`
    )
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1'])
  })

  it('an AbortError from the poller before the step time is spent is the timeout too', async () => {
    const a = arm({ lro: { polls: ['running'], end: { fail: abortError() } } })
    const err = await ensureCluster(a.clients, createSettings(), opts(captureLog())).catch(e => e)
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(err.message).toMatch(/^cluster rg\/aks1: timed out after 0ms; last state seen: running\. /)
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1'])
  })

  it('a step time already spent still leaves the create at least 1 ms', async () => {
    const a = arm({ getMs: 20_000, lro: { end: 'hang' } })
    const err = await ensureCluster(
      a.clients,
      createSettings(),
      opts(captureLog(), { timeoutMs: 10_000 })
    ).catch(e => e)
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(a.calls).toEqual(['GET rg/aks1', 'PUT rg/aks1'])
  })
})
