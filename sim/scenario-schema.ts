// The scenario file's schema (JSON Schema, checked with ajv): every key's type and range, no
// unknown keys, durations that parse and stay within a timer's range; and the check of node and NIC indexes against the pool a
// simulation will create. Problems come back as `key.path: what is wrong` lines.
import { Ajv, type ErrorObject } from 'ajv'
import { parseDuration } from '../src/util/duration.js'
import { accessProblems } from './kube/apiserver/access.js'

/**
 * The longest duration a scenario may give (simulated time): 10 years, far beyond any token
 * lifetime or delay a scenario needs; an absurd number (99999999999999h) is refused instead of
 * reaching a clock. (SimClock takes a wait longer than a Node timer's 2^31-1 ms in steps.)
 */
export const MAX_SCENARIO_DURATION_MS = 87_600 * 3_600_000

const duration = {
  anyOf: [
    { type: 'string', format: 'duration' },
    { type: 'number', minimum: 0, maximum: MAX_SCENARIO_DURATION_MS / 1000 }
  ]
}
const count = { type: 'integer', minimum: 0 }
const text = { type: 'string', minLength: 1 }
const guid = { type: 'string', pattern: '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$' }

/** Both halves' fault entries; which keys apply depends on where they are listed. */
const fault = {
  type: 'object',
  additionalProperties: false,
  properties: {
    match: text,
    api: text,
    pod: text,
    kind: { enum: ['CrashLoopBackOff', 'ImagePullBackOff', 'NeverReady'] },
    log: { type: 'string' },
    event: { type: 'string' },
    watch: { enum: ['disconnect'] },
    every: duration,
    status: { type: 'integer', minimum: 100, maximum: 599 },
    retryAfter: { type: 'number', minimum: 0 },
    reset: { type: 'boolean' },
    times: { type: 'integer', minimum: 1 }
  }
}
const azureFault = { ...fault, required: ['match'] }
const kubeFault = {
  ...fault,
  oneOf: [{ required: ['api'] }, { required: ['pod', 'kind'] }, { required: ['watch'] }]
}
const nodeIndex = { type: 'integer', minimum: 0 }

export const SCENARIO_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    azure: {
      type: 'object',
      additionalProperties: false,
      properties: {
        subscriptionId: guid,
        tenantId: guid,
        clientId: guid,
        federatedSubject: text,
        oidcSubject: text,
        feature: {
          type: 'object',
          additionalProperties: false,
          properties: {
            state: { enum: ['Registered', 'NotRegistered', 'Pending'] },
            pollsUntilRegistered: count,
            pendingPolls: count
          }
        },
        providerPollsUntilRegistered: count,
        cluster: {
          type: 'object',
          additionalProperties: false,
          properties: {
            exists: { type: 'boolean' },
            aad: { type: 'boolean' },
            localAccounts: { type: 'boolean' },
            kubernetesVersion: { type: 'string', pattern: '^v?\\d+\\.\\d+(\\.\\d+)?$' },
            location: text,
            name: { type: 'string', pattern: '^[a-zA-Z0-9][a-zA-Z0-9_-]{0,62}$' },
            resourceGroup: { type: 'string', pattern: '^[-\\w._()]{1,90}$' }
          }
        },
        existingPools: {
          type: 'array',
          maxItems: 100,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'vmSize', 'count'],
            properties: {
              name: { type: 'string', pattern: '^[a-z][a-z0-9]{0,11}$' },
              vmSize: text,
              count: { type: 'integer', minimum: 0, maximum: 1000 },
              osSKU: { enum: ['Ubuntu', 'Ubuntu2204', 'Ubuntu2404', 'AzureLinux'] },
              gpuDriver: { enum: ['Install', 'None'] },
              provisioningState: { enum: ['Succeeded', 'Failed', 'Creating', 'Updating', 'Deleting'] },
              tags: { type: 'object', additionalProperties: { type: 'string' } },
              nodeTaints: {
                type: 'array',
                maxItems: 100,
                items: {
                  type: 'string',
                  pattern: '^[A-Za-z0-9./_-]+(=[A-Za-z0-9._-]*)?:(NoSchedule|PreferNoSchedule|NoExecute)$'
                }
              },
              nodeLabels: { type: 'object', additionalProperties: { type: 'string' } }
            }
          }
        },
        poolProvisioning: {
          type: 'object',
          additionalProperties: false,
          properties: {
            polls: count,
            result: { enum: ['Succeeded', 'Failed'] },
            errorCode: text,
            errorMessage: text,
            duration,
            bootDelay: duration
          }
        },
        deletion: {
          type: 'object',
          additionalProperties: false,
          required: ['polls'],
          properties: { polls: count, duration }
        },
        tokens: {
          type: 'object',
          additionalProperties: false,
          properties: {
            oidcLifetime: duration,
            accessTokenLifetime: duration,
            aksAccessTokenLifetime: duration
          }
        },
        clientSecret: text,
        faults: { type: 'array', items: azureFault },
        deny: {
          type: 'array',
          maxItems: 100,
          items: { type: 'string', pattern: '^[A-Za-z0-9.*]+(/[A-Za-z0-9.*]+)+$' }
        }
      }
    },
    kube: {
      type: 'object',
      additionalProperties: false,
      properties: {
        // A fraction of real time: above 0, at most 1 (real time).
        timeScale: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        delays: {
          type: 'object',
          additionalProperties: false,
          properties: { mofed: duration, gpuDriver: duration, default: duration }
        },
        faults: { type: 'array', items: kubeFault },
        throttle: {
          type: 'object',
          additionalProperties: false,
          required: ['qps', 'burst'],
          properties: {
            qps: { type: 'number', exclusiveMinimum: 0 },
            burst: { type: 'integer', minimum: 1 },
            retryAfter: { type: 'integer', minimum: 0, maximum: 60 }
          }
        },
        // Each grant's user and RBAC rules: checked by accessProblems (kube/apiserver/access.ts).
        access: { type: 'array' },
        mutatePods: {
          type: 'array',
          maxItems: 20,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['image'],
            properties: {
              image: text,
              dropResources: {
                type: 'array',
                items: { type: 'string', pattern: '^[A-Za-z0-9.-]+/[A-Za-z0-9._-]+$' }
              },
              memoryLimit: { type: 'string', pattern: '^\\d+(\\.\\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$' }
            }
          }
        },
        images: {
          type: 'array',
          maxItems: 100,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['image', 'manifest', 'arches'],
            properties: {
              image: { type: 'string', minLength: 1, maxLength: 500 },
              manifest: { enum: ['index', 'single'] },
              arches: {
                type: 'array',
                minItems: 1,
                uniqueItems: true,
                items: { enum: ['amd64', 'arm64'] }
              }
            }
          }
        }
      }
    },
    nodes: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ibLinkGbps: { type: 'number', exclusiveMinimum: 0, maximum: 1600 },
        degraded: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['index', 'gbps'],
            properties: {
              index: nodeIndex,
              nic: { type: 'integer', minimum: 0 },
              gbps: { type: 'number', minimum: 0, maximum: 1600 }
            }
          }
        },
        noInfiniband: { type: 'array', items: nodeIndex, uniqueItems: true },
        ofedFails: { type: 'array', items: nodeIndex, uniqueItems: true },
        joinSpread: duration,
        containerMemlockKiB: { type: 'integer', minimum: 0 },
        peermemFails: { type: 'array', items: nodeIndex, uniqueItems: true },
        nvlinkDegraded: { type: 'array', items: nodeIndex, uniqueItems: true },
        dmabuf: { type: 'boolean' }
      }
    },
    dynamo: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ucx: {
          type: 'object',
          additionalProperties: false,
          properties: { cuda: { type: 'boolean' }, verbs: { type: 'boolean' } }
        }
      }
    },
    setup: {
      type: 'object',
      additionalProperties: false,
      properties: {
        apply: { type: 'boolean' },
        mutate: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name'],
            properties: {
              apiVersion: text,
              kind: text,
              namespace: text,
              name: text,
              mergePatch: { type: 'object' },
              azure: { enum: ['agentPool'] },
              set: { type: 'object' },
              delete: { type: 'boolean' }
            }
          }
        }
      }
    }
  }
} as const

let compiled: ReturnType<Ajv['compile']> | undefined

function validator(): ReturnType<Ajv['compile']> {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true })
    ajv.addFormat('duration', (s: string) => (parseDuration(s) ?? Infinity) <= MAX_SCENARIO_DURATION_MS)
    compiled = ajv.compile(SCENARIO_SCHEMA)
  }
  return compiled
}

/** `/azure/existingPools/0/count` → `azure.existingPools[0].count`. */
function keyOf(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter(Boolean)
  if (extra !== undefined) parts.push(extra)
  let out = ''
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p
  return out || '(top level)'
}

/** A value as the problem quotes it: short, one line. */
function shown(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 60 ? `${s.slice(0, 57)}...` : s
}

function valueAt(doc: unknown, instancePath: string): unknown {
  let v: unknown = doc
  for (const p of instancePath.split('/').filter(Boolean)) v = (v as Record<string, unknown>)?.[p]
  return v
}

function describe(e: ErrorObject, doc: unknown): string {
  const got = (): string => ` (got ${shown(valueAt(doc, e.instancePath))})`
  switch (e.keyword) {
    case 'additionalProperties':
      return `${keyOf(e.instancePath, String(e.params.additionalProperty))}: unknown key`
    case 'required':
      return `${keyOf(e.instancePath, String(e.params.missingProperty))}: required`
    case 'enum':
      return `${keyOf(e.instancePath)}: one of ${(e.params.allowedValues as unknown[]).map(shown).join(', ')}${got()}`
    case 'format':
      return `${keyOf(e.instancePath)}: not a duration of at most 10 years (e.g. 90s, 5m, 1h30m)${got()}`
    case 'anyOf':
      return `${keyOf(e.instancePath)}: a duration of at most 10 years (e.g. 90s, 5m, 1h30m) or a number of seconds${got()}`
    case 'oneOf':
      return `${keyOf(e.instancePath)}: a fault needs exactly one of api, pod (with kind) or watch`
    case 'type':
      return `${keyOf(e.instancePath)}: must be ${e.params.type === 'object' ? 'a mapping' : e.params.type === 'array' ? 'a list' : `a ${String(e.params.type)}`}${got()}`
    default:
      return `${keyOf(e.instancePath)}: ${e.message ?? 'invalid'}${got()}`
  }
}

/** Every problem of a scenario document (file, overrides or both merged); empty when it is valid. */
export function scenarioProblems(doc: unknown): string[] {
  const validate = validator()
  const access = (doc as { kube?: { access?: unknown } } | undefined)?.kube?.access
  const grants = Array.isArray(access) ? accessProblems(access) : []
  if (validate(doc)) return grants
  const errors = validate.errors ?? []
  // A duration's `anyOf` also reports its branches; the summary line says it all.
  const anyOfAt = new Set(errors.filter(e => e.keyword === 'anyOf').map(e => e.instancePath))
  const oneOfAt = new Set(errors.filter(e => e.keyword === 'oneOf').map(e => e.instancePath))
  const lines = errors
    .filter(e => !anyOfAt.has(e.instancePath) || e.keyword === 'anyOf')
    .filter(e => !(oneOfAt.has(e.instancePath) && e.keyword === 'required'))
    .map(e => describe(e, doc))
  return [...new Set([...lines, ...grants])]
}

/** What the pool a simulation creates holds: RDMA nodes and InfiniBand NICs per node. */
export interface PoolBounds {
  rdmaNodes: number
  ibNicsPerNode: number
}

/** Node and NIC indexes of `nodes.*` that fall outside the pool (they would silently do nothing). */
export function indexProblems(nodes: Record<string, unknown> | undefined, bounds: PoolBounds): string[] {
  const problems: string[] = []
  const node = (key: string, i: unknown): void => {
    if (typeof i === 'number' && i >= bounds.rdmaNodes)
      problems.push(`${key}: node index ${i} is outside the pool (RDMA nodes 0 to ${bounds.rdmaNodes - 1})`)
  }
  for (const key of ['noInfiniband', 'ofedFails', 'peermemFails', 'nvlinkDegraded'])
    for (const [at, i] of ((nodes?.[key] as unknown[] | undefined) ?? []).entries())
      node(`nodes.${key}[${at}]`, i)
  for (const [at, d] of ((nodes?.degraded as Array<Record<string, unknown>> | undefined) ?? []).entries()) {
    node(`nodes.degraded[${at}].index`, d.index)
    if (typeof d.nic === 'number' && d.nic >= bounds.ibNicsPerNode)
      problems.push(
        `nodes.degraded[${at}].nic: NIC index ${d.nic} is outside the node (InfiniBand NICs 0 to ${bounds.ibNicsPerNode - 1})`
      )
  }
  return problems
}
