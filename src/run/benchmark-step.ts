// The benchmark step of the flow: perftest between RDMA nodes (pair or fleet), reusing the
// verification probe's facts (link rates, devices), into the report and the outputs.
import { runBenchmark } from '../benchmark/runner.js'
import type { KubeClient } from '../kube/client.js'
import { log } from '../log/index.js'
import type { Report } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import type { Verification } from '../verify/index.js'
import { runStep } from './steps.js'

export async function runBenchmarkStep(
  s: Settings,
  kube: KubeClient,
  verification: Verification,
  report: Report
): Promise<void> {
  await runStep(
    report.steps,
    'benchmark',
    `perftest (${s.benchmark.scope}${s.benchmark.gpudirect ? ', GPUDirect' : ''})`,
    async () => {
      const run = await runBenchmark({
        settings: s,
        kube,
        facts: verification.facts,
        log
      })
      report.benchmark = run.report
      if (run.bandwidthGbps) report.outputs['bandwidth-gbps'] = run.bandwidthGbps
      if (run.latencyUs) report.outputs['latency-us'] = run.latencyUs
      for (const x of run.excluded) log.warning(`benchmark: ${x.node} left out: ${x.reason}`)
      if (run.gpudirect === 'unsupported' || run.gpudirect === 'host-staged')
        log.warning(`benchmark: GPUDirect ${run.gpudirect}: ${run.gpudirectDetail}`)
      if (run.verdict === 'fail') throw new Error(`benchmark: ${run.summary}`)
      return { changed: false, detail: run.summary }
    }
  )
}
