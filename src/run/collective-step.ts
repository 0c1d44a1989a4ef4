// The flow's collective step: runs the NCCL check (collective/) after the benchmark and puts its result in
// the report, outputs and diagnostics; a failed verdict fails the step. Docs: docs/collective-check.md.
import type { KubeClient } from '../kube/client.js'
import { log } from '../log/index.js'
import type { Report } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { runCollectiveCheck } from '../collective/runner.js'
import type { Verification } from '../verify/index.js'
import { runStep } from './steps.js'

export async function runCollectiveStep(
  s: Settings,
  kube: KubeClient,
  verification: Verification,
  report: Report
): Promise<void> {
  await runStep(
    report.steps,
    'collective',
    `NCCL collectives (all_reduce_perf, ${s.collective.image})`,
    async () => {
      const run = await runCollectiveCheck({
        settings: s,
        kube,
        facts: verification.facts ?? new Map(),
        log,
        gpudirect: s.gpudirect
      })
      const c = run.collective
      report.collective = c
      report.outputs.collective = c.mode
      if (c.busbwGBps !== null) report.outputs['nccl-busbw-gbps'] = c.busbwGBps.toFixed(2)
      if (c.verdict === 'fail') {
        for (const [pod, text] of Object.entries(run.logs))
          if (text)
            report.diagnostics = [
              ...(report.diagnostics ?? []),
              { step: 'collective', title: `pod ${pod} output`, text }
            ]
        throw new Error(`collective: ${run.summary}${c.fix ? `. Fix: ${c.fix}` : ''}`)
      }
      return { changed: false, detail: run.summary }
    }
  )
}
