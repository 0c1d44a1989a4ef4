// Unit tests of the Kubernetes helpers: quantities, server-side apply conflict parsing, and the
// GET-only convergence check (error classification and retries: errors.test.ts, rate-limit.test.ts).
import {
  checkConverged,
  dryRunChanges,
  firstDifference,
  firstDroppedField
} from '../../../src/kube/converge.js'
import { ApplyConflictError, parseApplyConflicts } from '../../../src/kube/errors.js'
import { parseQuantity } from '../../../src/kube/quantity.js'
import type { KubeObject } from '../../../src/kube/types.js'

describe('parseQuantity', () => {
  it('reads allocatable quantities', () => {
    expect(parseQuantity('1k')).toBe(1000)
    expect(parseQuantity('63')).toBe(63)
    expect(parseQuantity('8')).toBe(8)
    expect(parseQuantity('100m')).toBeCloseTo(0.1)
    expect(parseQuantity('16Gi')).toBe(16 * 2 ** 30)
    expect(parseQuantity('1e3')).toBe(1000)
    expect(parseQuantity('0')).toBe(0)
    expect(parseQuantity(undefined)).toBeUndefined()
    expect(parseQuantity('lots')).toBeUndefined()
  })
})

describe('server-side apply conflicts', () => {
  it('parses the Status causes', () => {
    const st = {
      message:
        'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.template.spec.containers[name="keepalive"].image',
      details: {
        causes: [
          {
            type: 'FieldManagerConflict',
            message: 'conflict with "kubectl-edit" using apps/v1',
            field: '.spec.template.spec.containers[name="keepalive"].image'
          }
        ]
      }
    }
    expect(parseApplyConflicts(st)).toEqual([
      { manager: 'kubectl-edit', field: '.spec.template.spec.containers[name="keepalive"].image' }
    ])
  })
  it('parses the message when there are no causes', () => {
    const one = parseApplyConflicts({
      message: 'Apply failed with 1 conflict: conflict with "helm" using v1: .data.config.json'
    })
    expect(one).toEqual([{ manager: 'helm', field: '.data.config.json' }])
    const many = parseApplyConflicts({
      message:
        'Apply failed with 3 conflicts: conflicts with "helm" using apps/v1:\n- .spec.replicas\n- .spec.paused\nconflict with "kubectl" using apps/v1: .metadata.labels.app'
    })
    expect(many).toEqual([
      { manager: 'helm', field: '.spec.replicas' },
      { manager: 'helm', field: '.spec.paused' },
      { manager: 'kubectl', field: '.metadata.labels.app' }
    ])
  })
  it('names the manager and the way out in the error', () => {
    const e = new ApplyConflictError(
      'configmap/rdma-devices -n kube-system',
      [{ manager: 'kubectl-edit', field: '.data.config.json' }],
      'x'
    )
    expect(e.message).toContain('"kubectl-edit"')
    expect(e.message).toContain('.data.config.json')
    expect(e.message).toContain('force-conflicts: true')
  })
})

describe('convergence check', () => {
  const desired: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'ds', namespace: 'kube-system', labels: { app: 'x' } },
    spec: { template: { spec: { nodeSelector: { pool: 'a' }, containers: [{ name: 'c', image: 'img:1' }] } } }
  }
  const fields = {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': {
      'f:template': {
        'f:spec': {
          'f:nodeSelector': { 'f:pool': {} },
          'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:image': {} } }
        }
      }
    }
  }
  const live = (mut?: (o: KubeObject) => void, f: unknown = fields): KubeObject => {
    const o: KubeObject = structuredClone(desired)
    o.metadata.resourceVersion = '7'
    o.metadata.managedFields = [{ manager: 'aks-rdma-action', operation: 'Apply', fieldsV1: f }]
    o.spec.template.spec.containers[0].imagePullPolicy = 'IfNotPresent'
    o.status = { numberReady: 1 }
    mut?.(o)
    return o
  }
  it('is converged when live holds every desired field and nothing more of ours', () => {
    expect(checkConverged(desired, live(), 'aks-rdma-action')).toEqual({ converged: true })
  })
  it('sees a changed value', () => {
    const r = checkConverged(
      desired,
      live(o => (o.spec.template.spec.containers[0].image = 'img:0')),
      'aks-rdma-action'
    )
    expect(r.converged).toBe(false)
    expect(r.reason).toContain('.spec.template.spec.containers[0].image')
  })
  it('sees a field we own that is no longer desired', () => {
    const f = structuredClone(fields) as any
    f['f:spec']['f:template']['f:spec']['f:nodeSelector']['f:network.nvidia.com/operator.mofed.wait'] = {}
    const r = checkConverged(
      desired,
      live(o => (o.spec.template.spec.nodeSelector['network.nvidia.com/operator.mofed.wait'] = 'false'), f),
      'aks-rdma-action'
    )
    expect(r.converged).toBe(false)
    expect(r.reason).toContain('mofed.wait')
  })
  it('needs an apply when absent or never applied by us', () => {
    expect(checkConverged(desired, undefined, 'aks-rdma-action').converged).toBe(false)
    expect(
      checkConverged(
        desired,
        live(
          o => (o.metadata.managedFields = [{ manager: 'kubectl', operation: 'Update', fieldsV1: fields }])
        ),
        'aks-rdma-action'
      ).converged
    ).toBe(false)
  })
  it('walks list keys and values in fieldsV1', () => {
    expect(firstDroppedField({ 'f:a': { 'v:"x"': {} } }, { a: ['x'] })).toBeUndefined()
    expect(firstDroppedField({ 'f:a': { 'v:"y"': {} } }, { a: ['x'] })).toBe('.a[="y"]')
    expect(firstDroppedField({ 'f:a': { 'k:{"name":"n"}': { 'f:v': {} } } }, { a: [{ name: 'n' }] })).toBe(
      '.a[{"name":"n"}].v'
    )
    expect(firstDifference({ a: [1, 2] }, { a: [1, 2, 3] })).toContain('.a')
  })
  it('compares a dry-run result with the live object ignoring bookkeeping', () => {
    const l = live()
    const same = structuredClone(l)
    same.metadata.managedFields = []
    same.metadata.resourceVersion = '8'
    same.status = {}
    expect(dryRunChanges(same, l)).toBe(false)
    const other = structuredClone(l)
    other.spec.template.spec.containers[0].image = 'img:2'
    expect(dryRunChanges(other, l)).toBe(true)
  })
})
