// The stack's component names for tests, derived from the registry (src/components): no test lists
// the stack by hand, so adding or moving a component changes one place. The order itself is pinned
// once, by the golden-order test in test/unit/components/registry.test.ts. Functions, not constants:
// the mutation run switches mutants on per test, after the files are loaded.
import { COMPONENT_ORDER, kubeComponents, type ComponentName } from '../../src/components/index.js'

/** Every component, in stack order (what plan lists). */
export function allComponents(): ComponentName[] {
  return [...COMPONENT_ORDER]
}

/** The components on the cluster (helm releases and manifests), in stack order: the steps apply runs. */
export function clusterStack(): ComponentName[] {
  return kubeComponents().map(c => c.name)
}

/** The cluster components after `name`, in stack order (what a failure of `name` skips). */
export function clusterStackAfter(name: ComponentName): ComponentName[] {
  const stack = clusterStack()
  return stack.slice(stack.indexOf(name) + 1)
}

/** Each cluster component with `status`, except those given their own. */
export function clusterStatuses(
  status: string,
  except: Partial<Record<ComponentName, string>> = {}
): Array<[ComponentName, string]> {
  return clusterStack().map(n => [n, except[n] ?? status])
}
