// The cluster stack executor's public surface: applyStack, the Lease release for the post step,
// failure diagnostics, and the shapes they use.
export { applyStack } from './apply.js'
export {
  acquireLease,
  releaseLease,
  LEASE_NAME,
  LEASE_NAMESPACE,
  type LeaseHandle,
  type LeaseOptions
} from './lease.js'
export { buildDiagnostic, type Diagnostic } from './diagnostics.js'
export type { PoolInfo } from './pipeline-gates.js'
export type { ApplyStackContext, ApplyStackResult, StackStep } from './types.js'
