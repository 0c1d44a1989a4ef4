// The names that mark the action's own short-lived pods and their namespace (no client here, so the
// plan can name them without loading the Kubernetes client): the work namespace, its labels, and
// the label value naming a run.
import { createHash } from 'node:crypto'

export const WORK_NAMESPACE = 'aks-rdma-verify'

export const WORK_LABELS = {
  name: 'app.kubernetes.io/name',
  component: 'app.kubernetes.io/component',
  run: 'aks-rdma-action/run',
  node: 'aks-rdma-action/node'
} as const

export const APP_NAME = 'aks-rdma-action'

/** A label value (≤ 63 characters of [A-Za-z0-9._-], alphanumeric at both ends) naming this run. */
export function runLabel(runId: string): string {
  const clean = runId.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')
  if (clean.length > 0 && clean.length <= 63) return clean
  return `run-${createHash('sha256').update(runId).digest('hex').slice(0, 16)}`
}

/** The labels of a run's work objects (probe, benchmark, transport pods): the app, what they are, the run. */
export function workLabels(runId: string, component: string): Record<string, string> {
  return {
    [WORK_LABELS.name]: APP_NAME,
    [WORK_LABELS.component]: component,
    [WORK_LABELS.run]: runLabel(runId)
  }
}
