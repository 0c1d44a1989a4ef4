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
  it.each<[string | undefined, number | undefined]>([
    ['1k', 1000],
    ['63', 63],
    ['8', 8],
    ['16Gi', 16 * 2 ** 30],
    ['1e3', 1000],
    ['0', 0],
    [undefined, undefined],
    ['lots', undefined]
  ])('reads the allocatable quantity %j as %p', (text, value) => {
    expect(parseQuantity(text)).toBe(value)
  })
  it('reads a milli quantity as a fraction', () => {
    expect(parseQuantity('100m')).toBeCloseTo(0.1)
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
            reason: 'FieldManagerConflict',
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

describe('convergence check, exact reasons and edges', () => {
  it('firstDifference: subset for objects, same length and order for lists, exact for scalars', () => {
    expect(firstDifference({ a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'x', d: 2 }, e: 3 })).toBeUndefined()
    expect(firstDifference({ a: null, b: undefined }, { z: 1 })).toBeUndefined()
    expect(firstDifference({ b: { c: 'x' } }, { b: { c: 'y' } })).toBe('.b.c: live "y", desired "x"')
    expect(firstDifference({ b: { c: 'x' } }, { b: 'flat' })).toBe('.b: missing')
    expect(firstDifference({ a: [1] }, { a: 'x' })).toBe('.a: missing')
    expect(firstDifference([1], {})).toBe('.: missing')
    expect(firstDifference({ c: 1 }, [])).toBe('.: missing')
    expect(firstDifference({ a: [1, 2] }, { a: [1] })).toBe('.a: 1 items live, 2 desired')
    expect(firstDifference({ a: [1, 2] }, { a: [1, 3] })).toBe('.a[1]: live 3, desired 2')
    expect(firstDifference({ a: [{ x: 1 }, { x: 2 }] }, { a: [{ x: 1, y: 0 }, { x: 2 }] })).toBeUndefined()
    expect(firstDifference({ n: 1 }, { n: '1' })).toBe('.n: live "1", desired 1')
    expect(firstDifference({ n: 1 }, {})).toBe('.n: live undefined, desired 1')
  })

  it('firstDroppedField: every kind of path element, and the ones it cannot read skipped', () => {
    const desired = { spec: { list: [{ name: 'a', port: 80, v: 1 }], set: ['x', 'y'], idx: [{ q: 1 }] } }
    expect(firstDroppedField(undefined, desired)).toBeUndefined()
    expect(firstDroppedField({ '.': {}, 'f:spec': { '.': {} } }, desired)).toBeUndefined()
    expect(firstDroppedField({ 'f:gone': {} }, desired)).toBe('.gone')
    expect(firstDroppedField({ 'f:spec': { 'f:list': { 'f:x': {} } } }, desired)).toBe('.spec.list.x')
    expect(firstDroppedField({ 'f:spec': { 'f:nil': {} } }, { spec: { nil: null } })).toBe('.spec.nil')
    // A key matches by value, also when the live key is a string and the manifest has a number.
    expect(
      firstDroppedField({ 'f:spec': { 'f:list': { 'k:{"name":"a","port":"80"}': { 'f:v': {} } } } }, desired)
    ).toBeUndefined()
    expect(firstDroppedField({ 'f:spec': { 'f:list': { 'k:{"name":"b"}': {} } } }, desired)).toBe(
      '.spec.list[{"name":"b"}]'
    )
    expect(firstDroppedField({ 'f:spec': { 'f:list': { 'k:{"name":"a"}': { 'f:w': {} } } } }, desired)).toBe(
      '.spec.list[{"name":"a"}].w'
    )
    expect(
      firstDroppedField({ 'f:spec': { 'f:set': { 'k:{"name":"a"}': {} } } }, { spec: { set: 'x' } })
    ).toBe('.spec.set[{"name":"a"}]')
    expect(
      firstDroppedField({ 'f:spec': { 'f:set': { 'v:"y"': {}, 'v:"x"': {} } } }, desired)
    ).toBeUndefined()
    expect(firstDroppedField({ 'f:spec': { 'f:set': { 'v:"z"': {} } } }, desired)).toBe('.spec.set[="z"]')
    expect(firstDroppedField({ 'f:spec': { 'f:idx': { 'i:0': { 'f:q': {} } } } }, desired)).toBeUndefined()
    expect(firstDroppedField({ 'f:spec': { 'f:idx': { 'i:1': {} } } }, desired)).toBe('.spec.idx[1]')
    expect(firstDroppedField({ 'f:spec': { 'f:idx': { 'i:0': { 'f:r': {} } } } }, desired)).toBe(
      '.spec.idx[0].r'
    )
    expect(firstDroppedField({ 'f:spec': { 'f:set': { 'i:0': {} } } }, { spec: { set: {} } })).toBe(
      '.spec.set[0]'
    )
    // Unreadable keys and unknown kinds are skipped, not guessed.
    expect(
      firstDroppedField({ 'f:spec': { 'f:list': { 'k:{bad': {}, 'v:{bad': {}, 'x:what': {} } } }, desired)
    ).toBeUndefined()
  })

  it('checkConverged: metadata labels and annotations count, status does not; only our Apply entries', () => {
    const desired: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', labels: { a: '1' }, annotations: { n: 'x' } },
      data: { k: 'v' }
    }
    const ours = { manager: 'me', operation: 'Apply', fieldsV1: { 'f:data': { 'f:k': {} } } }
    const live = (o: Partial<KubeObject> = {}, meta: Record<string, unknown> = {}): KubeObject => ({
      ...structuredClone(desired),
      status: { anything: true },
      ...o,
      metadata: { ...structuredClone(desired.metadata), managedFields: [ours], ...meta }
    })
    expect(checkConverged(desired, live(), 'me')).toEqual({ converged: true })
    expect(checkConverged(desired, undefined, 'me')).toEqual({ converged: false, reason: 'absent' })
    expect(checkConverged(desired, live({}, { annotations: { n: 'y' } }), 'me')).toEqual({
      converged: false,
      reason: '.metadata.annotations.n: live "y", desired "x"'
    })
    expect(checkConverged(desired, live({ data: { k: 'w' } }), 'me')).toEqual({
      converged: false,
      reason: '.data.k: live "w", desired "v"'
    })
    const notOurs = [
      { ...ours, manager: 'other' },
      { ...ours, operation: 'Update' },
      { ...ours, subresource: 'status' }
    ]
    for (const entry of notOurs)
      expect(checkConverged(desired, live({}, { managedFields: [entry] }), 'me')).toEqual({
        converged: false,
        reason: 'not yet applied by field manager me'
      })
    const dropped = { ...ours, fieldsV1: { 'f:data': { 'f:k': {}, 'f:old': {} } } }
    expect(checkConverged(desired, live({}, { managedFields: [ours, dropped] }), 'me')).toEqual({
      converged: false,
      reason: '.data.old: no longer desired (would be removed)'
    })
  })

  it('dryRunChanges: any difference beyond status and bookkeeping, and always when absent', () => {
    const o: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', uid: 'u1' },
      data: { k: 'v' }
    }
    expect(dryRunChanges(o, undefined)).toBe(true)
    const bookkeeping = {
      ...o,
      metadata: { ...o.metadata, uid: 'u2', creationTimestamp: 't', resourceVersion: '9' }
    }
    expect(dryRunChanges(bookkeeping, o)).toBe(false)
    expect(dryRunChanges({ ...o, metadata: { ...o.metadata, labels: { a: 'b' } } }, o)).toBe(true)
    expect(dryRunChanges({ ...o, data: { k: 'v', extra: undefined } as never }, o)).toBe(false)
    expect(dryRunChanges({ ...o, data: { k: 'v', extra: 'x' } }, o)).toBe(true)
    expect(dryRunChanges({ ...o, data: ['k'] as never }, { ...o, data: ['k', 'v'] as never })).toBe(true)
    expect(dryRunChanges({ ...o, data: ['k', 'w'] as never }, { ...o, data: ['k', 'v'] as never })).toBe(true)
    expect(dryRunChanges({ ...o, data: ['k', 'v'] as never }, { ...o, data: ['k', 'v'] as never })).toBe(
      false
    )
    expect(dryRunChanges({ ...o, data: { k: ['v'] } as never }, { ...o, data: { k: 'v' } })).toBe(true)
  })
})
