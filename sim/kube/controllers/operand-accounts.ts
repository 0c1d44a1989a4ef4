// The ServiceAccount an operator renders next to each operand DaemonSet it deploys (owned by its
// custom resource, so it goes with it), which the ServiceAccount admission plugin requires before
// the operand's pods may be created: NVIDIA/gpu-operator@v26.7.0 `assets/state-*/` (a
// `*_service_account.yaml` per state, named as the operand), Mellanox/network-operator@v26.4.0
// `manifests/state-ofed-driver/0010_service-account.yaml` (the `ofed-driver` account).
import type { KubeObject } from '../store.js'
import { createIfAbsent, ownerRef, typeFromKey, type SimContext } from './context.js'

export function ensureOperandServiceAccount(
  ctx: SimContext,
  owner: KubeObject,
  ns: string,
  name: string,
  labels: Record<string, string> = {}
): void {
  const t = typeFromKey(ctx, 'serviceaccounts')
  if (!t || ctx.cache.get('serviceaccounts', ns, name)) return
  createIfAbsent(ctx, t, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace: ns, labels, ownerReferences: [ownerRef(owner)] }
  } as KubeObject)
}
