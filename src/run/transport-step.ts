// The flow's transport step: runs the UCX check (transport/) after the benchmark and puts its result in
// the report, outputs and diagnostics; a failed verdict fails the step. Docs: docs/transport-check.md.
import type { KubeClient } from '../kube/client.js'
import { log } from '../log/index.js'
import { dynamoWorkerSnippet } from '../transport/dynamo-worker.js'
import type { Report } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { gpuNicMapOf } from '../transport/pods.js'
import { runTransportCheck } from '../transport/runner.js'
import type { Verification } from '../verify/index.js'
import { runStep } from './steps.js'

/** What ran before the transport check, for a busy pool's reason. */
function ranBefore(report: Report): string {
  const b = report.benchmark
  if (!b || !b.pairs.length) return 'the read-only checks and the node probe ran'
  if (b.busy) return 'the read-only checks and the node probe ran (the benchmark found the pool busy too)'
  return 'the read-only checks, the node probe and the benchmark ran'
}

export async function runTransportStep(
  s: Settings,
  kube: KubeClient,
  verification: Verification,
  report: Report
): Promise<void> {
  await runStep(report.steps, 'transport', `Dynamo transport (UCX, ${s.transport.image})`, async () => {
    const facts = verification.facts ?? new Map()
    const run = await runTransportCheck({ settings: s, kube, facts, log, ran: ranBefore(report) })
    const t = run.transport
    report.transport = t
    report.outputs.transport = t.mode
    const gbps = t.pairs[0]?.bandwidthGbps
    if (gbps !== null && gbps !== undefined) report.outputs['transport-gbps'] = gbps.toFixed(2)
    if (t.verdict === 'fail') {
      for (const role of ['server', 'client'] as const) {
        const text = run.logs[role]
        if (text)
          report.diagnostics = [
            ...(report.diagnostics ?? []),
            { step: 'transport', title: `${role} pod output`, text }
          ]
      }
      throw new Error(`transport: ${run.summary}${t.fix ? `. Fix: ${t.fix}` : ''}`)
    }
    const client = facts.get(t.pairs[0]?.client ?? '')
    t.workerSnippet = dynamoWorkerSnippet(s, client ? { gpuNicMap: gpuNicMapOf(client) } : {})
    return { changed: false, detail: run.summary }
  })
}
