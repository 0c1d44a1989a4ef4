// The cluster stack executor's public surface: applyStack, the Lease release for the post step,
// and the shapes they use.
export { applyStack, CLUSTER_COMPONENTS } from './executor.js'
export {
  acquireLease,
  releaseLease,
  LEASE_NAME,
  LEASE_NAMESPACE,
  type LeaseHandle,
  type LeaseOptions
} from './lease.js'
export { buildDiagnostic, type Diagnostic } from './diagnostics.js'
export { NODE_DEPENDENCIES, waitsOnPoolNodes, type PoolInfo } from './pipeline-gates.js'
export {
  READINESS,
  type ComponentReadiness,
  type NodeProgress,
  type ReadinessVerdict
} from './readiness/index.js'
export type { ApplyStackContext, ApplyStackResult, StackLog, StepResult, StepStatus } from './types.js'
