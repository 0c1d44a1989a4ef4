// Unit-test helper: one ARM resource (a managed cluster, an agent pool) behind its SDK operations
// group, in memory, for the steps that read it and create it. `get` answers ARM's 404
// ResourceNotFound when the resource is absent. `createOrUpdate` returns a poller shaped as
// @azure/core-lro's PollerLike: `submitted` sends the PUT (refused with 412 PreconditionFailed
// under If-None-Match: * when the resource exists, as ARM does), `onProgress` callbacks run after
// each poll, `pollUntilDone` honours its abort signal (rejecting with an AbortError, which leaves
// the operation's state as it was, as core-lro does) and ends with the resource Succeeded or the
// operation failed; `isDone`, `operationState` and `result` read as core-lro's. Every call is
// recorded (`GET a/b/c`, `PUT a/b/c`) with the PUT's bodies and options and the poll options.
// Time passes on the clock the test gives (its Date.now fake): a GET takes `getMs`, each poll
// `pollMs`. All state is per instance.
import type { ArmClients } from '../../src/azure/clients.js'
import type { FixedNow } from './fixed-now.js'
import { abortError, armFail } from './arm-errors.js'

export interface ArmLro<T> {
  /** The operation status each poll before the last reports (undefined: a state without one). */
  polls?: Array<string | undefined>
  /** The resource's provisioningState after each poll before the last. */
  states?: string[]
  /**
   * How pollUntilDone ends: success (the resource in `finalState`); a rejection (an operation
   * failure leaves the resource as `resource`, by default Failed; an AbortError leaves it as it
   * is); or `hang`: only the abort signal ends it (a success after 300 ms).
   */
  end?: 'succeeded' | 'hang' | { fail: unknown; resource?: T }
  /** The resource's provisioningState when the operation succeeds (default Succeeded). */
  finalState?: string
  /** What pollUntilDone rejects with when aborted (default an AbortError, as core-lro does). */
  onAbort?: Error
  /** poller.result stays undefined after success. */
  noResult?: boolean
  /** No operationState while it runs (a poller that never reported one). */
  noState?: boolean
  /** Each poll takes this long on the clock. */
  pollMs?: number
}

export interface ArmResourceOptions<T> {
  /** The operations group of containerService the resource is under. */
  group: 'managedClusters' | 'agentPools'
  /** The Date.now fake that GETs and polls move. */
  clock: FixedNow
  /** The resource, or what its GET throws. */
  resource?: T | Error
  /** Another run creates this resource just before our PUT (the PUT then gets 412). */
  appearsBeforePut?: T
  /** What the GETs after the first return, in turn (then the stored resource); undefined: 404. */
  laterGets?: Array<T | Error | undefined>
  /** The PUT fails with this at submission. */
  putError?: Error
  lro?: ArmLro<T>
  /** A GET takes this long on the clock. */
  getMs?: number
}

type ProgressState = { status?: string }

/** What a test scripts: all but the group and the clock. */
export type ArmScript<T> = Omit<ArmResourceOptions<T>, 'group' | 'clock'>

export interface ArmResource<T> {
  /** The clients (subscription sub-1) with the group's get and createOrUpdate (…names[, body, options]). */
  clients: ArmClients
  calls: string[]
  bodies: T[]
  putOptions: Array<Record<string, unknown>>
  pollOptions: Array<Record<string, unknown> | undefined>
}

const tick = () => new Promise<void>(r => setImmediate(r))

/** ARM's 404 for a GET of (resource group, cluster[, pool]) that finds nothing. */
function notFound(names: string[]): Error {
  const path = names
    .slice(1)
    .map((n, i) => `${['managedClusters', 'agentPools'][i]}/${n}`)
    .join('/')
  return armFail(404, 'ResourceNotFound', `The Resource 'Microsoft.ContainerService/${path}' was not found.`)
}

/** The 412 of a PUT with If-None-Match: * to a resource that exists. */
const EXISTS = {
  managedClusters: 'The resource already exists (If-None-Match: *).',
  agentPools: 'The agent pool already exists.'
}

export function armResource<T extends { provisioningState?: string }>(
  o: ArmResourceOptions<T>
): ArmResource<T> {
  const clock = o.clock
  const calls: string[] = []
  let stored: T | Error | undefined = o.resource
  let gets = 0
  const laterGets = [...(o.laterGets ?? [])]
  const putOptions: Array<Record<string, unknown>> = []
  const pollOptions: Array<Record<string, unknown> | undefined> = []
  const bodies: T[] = []
  const withState = (provisioningState: string): T => ({ ...(stored as T), provisioningState })

  const get = async (...names: string[]): Promise<T> => {
    calls.push(`GET ${names.join('/')}`)
    clock.ms += o.getMs ?? 0
    gets++
    const v = gets > 1 && laterGets.length ? laterGets.shift() : stored
    if (v === undefined) throw notFound(names)
    if (v instanceof Error) throw v
    return v
  }

  const createOrUpdate = (...args: unknown[]) => {
    const opts = args.pop() as Record<string, unknown>
    const body = args.pop() as T
    calls.push(`PUT ${args.join('/')}`)
    bodies.push(body)
    putOptions.push(opts)
    if (o.appearsBeforePut) stored = o.appearsBeforePut
    const lro = o.lro ?? {}
    const callbacks: Array<(s: ProgressState) => void> = []
    const progress = () => {
      for (const cb of callbacks) cb(p.operationState ?? {})
    }
    const p = {
      isDone: false,
      operationState: undefined as { status?: string; result?: T } | undefined,
      result: undefined as T | undefined,
      submitted: async () => {
        const existing = stored !== undefined && !(stored instanceof Error)
        if (o.putError) throw o.putError
        if (existing && opts.ifNoneMatch === '*') throw armFail(412, 'PreconditionFailed', EXISTS[o.group])
        stored = { ...body, provisioningState: 'Creating' }
        if (!lro.noState) p.operationState = { status: 'running' }
      },
      onProgress: (cb: (s: ProgressState) => void) => {
        callbacks.push(cb)
        return () => undefined
      },
      pollUntilDone: async (po?: { abortSignal?: AbortSignal }) => {
        pollOptions.push(po)
        const polls = Math.max(lro.polls?.length ?? 0, lro.states?.length ?? 0)
        for (let i = 0; i < polls; i++) {
          clock.ms += lro.pollMs ?? 0
          if (lro.states) stored = withState(lro.states[i])
          if (lro.polls && !lro.noState) p.operationState = { status: lro.polls[i] }
          progress()
          await tick()
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
        clock.ms += lro.pollMs ?? 0
        p.isDone = true
        if (typeof end === 'object') {
          if ((end.fail as Error | undefined)?.name !== 'AbortError') {
            stored = end.resource ?? withState('Failed')
            p.operationState = { status: 'failed' }
            progress()
          }
          throw end.fail
        }
        stored = withState(lro.finalState ?? 'Succeeded')
        if (!lro.noResult) p.result = stored
        p.operationState = { status: 'succeeded', result: p.result }
        progress()
        return p.result
      }
    }
    return p
  }

  const clients = {
    containerService: { [o.group]: { get, createOrUpdate } },
    subscriptionId: 'sub-1'
  } as unknown as ArmClients
  return { clients, calls, bodies, putOptions, pollOptions }
}
