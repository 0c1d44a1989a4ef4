// status and uninstall --dry-run as text (src/status/render.ts): every line within 80 columns, even
// with cluster strings longer than a line (a run id, a holder, a reason); what is absent said so.
import { describe, expect, it } from '@jest/globals'
import { fit, renderPreviewText, renderStatusText, TEXT_WIDTH } from '../../../src/status/render.js'
import type { StatusDocument } from '../../../src/status/status.js'
import type { UninstallPreview } from '../../../src/status/uninstall-preview.js'

const LONG = `run-${'x'.repeat(190)}`
const widest = (text: string): number => Math.max(...text.split('\n').map(l => [...l].length))

function status(over: Partial<StatusDocument> = {}): StatusDocument {
  return {
    mode: 'status',
    cluster: { context: `ctx-${'c'.repeat(120)}`, cluster: 'aks', server: 'https://127.0.0.1:6443' },
    record: { namespace: 'kube-system', name: 'aks-rdma-action-owned', entries: 11 },
    releases: [
      {
        component: 'gpu-operator',
        release: 'gpu-operator',
        namespace: 'gpu-operator',
        installed: true,
        chart: 'gpu-operator',
        version: 'v26.7.0',
        status: 'deployed',
        revision: 3,
        owned: true,
        why: `installed by run ${LONG}`,
        source: 'helm'
      },
      {
        component: 'network-operator',
        release: 'network-operator',
        namespace: 'network-operator',
        installed: false,
        chart: null,
        version: null,
        status: null,
        revision: null,
        owned: false,
        why: 'not installed',
        source: 'none'
      }
    ],
    pools: [{ name: 'rdmapool', selected: true, recorded: false, nodes: 1, ready: 0 }],
    lease: {
      namespace: 'kube-system',
      name: 'aks-rdma-action',
      holder: LONG,
      acquireTime: '2026-12-07T08:00:00.000000Z',
      renewTime: '2026-12-07T08:00:10.000000Z',
      durationSeconds: 60,
      expired: true,
      secondsSinceRenewal: 4000
    },
    lastRun: null,
    notes: [`a note ${'n'.repeat(150)}`],
    ...over
  }
}

describe('status as text', () => {
  it('fits 80 columns whatever the cluster strings, and says what is absent', () => {
    const text = renderStatusText(status())
    expect(widest(text)).toBeLessThanOrEqual(TEXT_WIDTH)
    expect(text).toContain('Last run: no run recorded')
    expect(text).toContain('rdmapool: 1 node, 0 ready (selected)')
    expect(text).toContain('network-operator -n network-operator: not installed')
    expect(text).toMatch(/expired \(not renewed within 60 s\)/)
    expect(text.replace(/\n\s*/g, '')).toContain(LONG)
  })

  it('no record, no Lease holder: said in words', () => {
    const text = renderStatusText(status({ record: null, lease: null }))
    expect(text).toContain('Ownership record: none')
    expect(text).toContain('Lease kube-system/aks-rdma-action: not held')
  })

  it('fit cuts a word wider than a line and indents the rest', () => {
    const lines = fit(`a ${'w'.repeat(200)}`, '  ', '    ')
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(TEXT_WIDTH)
    expect(lines.slice(1).every(l => l.startsWith('    '))).toBe(true)
  })
})

describe('the uninstall preview as text', () => {
  it('lists removes, waits and keeps with their reasons within 80 columns', () => {
    const preview: UninstallPreview = {
      mode: 'uninstall',
      dryRun: true,
      cluster: { resourceGroup: 'rg', name: 'aks' },
      record: 'kube-system/aks-rdma-action-owned',
      parts: [
        {
          name: 'gpu-operator',
          title: 'NVIDIA GPU Operator v26.7.0',
          remove: [{ what: 'namespace/gpu-operator', why: `recorded uid ${'u'.repeat(100)}` }],
          waits: ['2 driver-pods'],
          keep: [
            { what: 'configmap/x -n kube-system', why: 'not created by the action (not in the record)' }
          ],
          note: 'each driver pod unloads the GPU driver as it stops'
        },
        { name: 'node-feature-rule', title: 'NodeFeatureRule', remove: [], waits: [], keep: [] }
      ],
      azure: 'node pool rdmapool and cluster rg/aks stay (cleanup: none)',
      stays: ['the CRDs the charts installed'],
      removeCount: 1,
      keepCount: 1
    }
    const text = renderPreviewText(preview)
    expect(widest(text)).toBeLessThanOrEqual(TEXT_WIDTH)
    expect(text).toContain('- remove namespace/gpu-operator: recorded uid')
    expect(text).toContain('- wait for 2 driver-pods to be gone')
    expect(text).toContain('- keep configmap/x -n kube-system: not created by the action')
    expect(text).toContain('2. node-feature-rule: NodeFeatureRule\n   nothing there')
    expect(text).toContain('Would remove 1 and keep 1')
  })
})
