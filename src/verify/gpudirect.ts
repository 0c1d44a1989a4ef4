// Which path GPUDirect RDMA took on the pool (open kernel modules for dmabuf, nvidia_peermem for
// peermem), from the node probes' facts. See docs/guide-departures.md.
import { nodeGpuDirectPath, wantedPath } from '../model/gpudirect.js'
import type { ReportGpuDirect } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import type { NodeFacts } from './probe-output.js'

/** What a node shows about both paths, in words. */
function shows(f: NodeFacts): string {
  const modules =
    f.openKernelModules === null
      ? 'GPU kernel modules unknown'
      : f.openKernelModules
        ? 'open kernel modules'
        : 'proprietary kernel modules'
  const peermem =
    f.peermemLoaded === null
      ? 'nvidia_peermem unknown'
      : f.peermemLoaded
        ? 'nvidia_peermem loaded'
        : 'no nvidia_peermem'
  return `${modules}, ${peermem}`
}

/** The path on the probed nodes that ran (a probe error leaves a node out); undefined when none did. */
export function gpuDirectReport(facts: Iterable<NodeFacts>, s: Settings): ReportGpuDirect | undefined {
  const probed = [...facts].filter(f => !f.error && f.gpus.length > 0)
  if (!probed.length) return undefined
  const nodes = probed.map(f => ({
    node: f.node,
    path: nodeGpuDirectPath(s.gpudirect, f),
    shows: shows(f)
  }))
  const want = wantedPath(s.gpudirect)
  const without = nodes.filter(n => n.path === null)
  const path = without.length ? null : want
  const detail = path
    ? `GPUDirect by ${path} on ${nodes.length} node${nodes.length === 1 ? '' : 's'} (gpudirect: ${s.gpudirect}; ${s.gpudirect === 'dmabuf' ? 'the GPU driver runs the open kernel modules' : 'nvidia_peermem loaded'})`
    : `GPUDirect by ${want} not available on ${without.map(n => `${n.node} (${n.shows})`).join(', ')} (gpudirect: ${s.gpudirect})`
  return { mode: s.gpudirect, path, nodes, detail }
}
