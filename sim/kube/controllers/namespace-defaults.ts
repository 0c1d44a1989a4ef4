// What every active namespace is given by kube-controller-manager (kubernetes/kubernetes@v1.33.2):
// the `default` ServiceAccount, recreated when deleted (pkg/controller/serviceaccount/
// serviceaccounts_controller.go), and the `kube-root-ca.crt` ConfigMap holding the cluster's CA
// bundle under `ca.crt` with its `kubernetes.io/description` annotation, restored when deleted or
// changed (pkg/controller/certificates/rootcacertpublisher/publisher.go). Namespaces being
// terminated are left alone.
import type { KubeObject } from '../store.js'
import { createIfAbsent, TK, typeFromKey, type SimContext } from './context.js'
import type { Reconciler } from './queue.js'

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt'
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.'

export class NamespaceDefaultsController implements Reconciler {
  readonly name = 'namespace-defaults'
  constructor(
    private readonly ctx: SimContext,
    private readonly caPem: string | undefined
  ) {
    ctx.cache.onEvent((e, tk) => {
      const o = e.object
      if (tk === TK.namespaces && e.type !== 'DELETED') ctx.queue.add(this, o.metadata.name)
      else if (tk === 'serviceaccounts' && o.metadata.name === 'default' && e.type === 'DELETED')
        ctx.queue.add(this, o.metadata.namespace!)
      else if (tk === TK.configmaps && o.metadata.name === ROOT_CA_CONFIGMAP)
        ctx.queue.add(this, o.metadata.namespace!)
    })
    for (const ns of ctx.cache.list(TK.namespaces)) ctx.queue.add(this, ns.metadata.name)
  }

  reconcile(name: string): void {
    const ns = this.ctx.cache.get(TK.namespaces, undefined, name)
    if (!ns || ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return
    const saT = typeFromKey(this.ctx, 'serviceaccounts')
    if (saT && !this.ctx.cache.get('serviceaccounts', name, 'default'))
      createIfAbsent(this.ctx, saT, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'default', namespace: name }
      } as KubeObject)
    if (this.caPem) this.publishRootCa(name, this.caPem)
  }

  private publishRootCa(ns: string, caPem: string): void {
    const t = typeFromKey(this.ctx, TK.configmaps)
    if (!t) return
    const cur = this.ctx.cache.get(TK.configmaps, ns, ROOT_CA_CONFIGMAP)
    if (!cur) {
      createIfAbsent(this.ctx, t, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: ROOT_CA_CONFIGMAP,
          namespace: ns,
          annotations: { 'kubernetes.io/description': DESCRIPTION }
        },
        data: { 'ca.crt': caPem }
      } as KubeObject)
      return
    }
    if (cur.metadata.deletionTimestamp) return
    const same =
      cur.data?.['ca.crt'] === caPem &&
      Object.keys(cur.data ?? {}).length === 1 &&
      cur.metadata.annotations?.['kubernetes.io/description'] === DESCRIPTION
    if (same) return
    this.ctx.store.mutate(t, ns, ROOT_CA_CONFIGMAP, o => {
      o.data = { 'ca.crt': caPem }
      delete o.binaryData
      o.metadata.annotations = { ...(o.metadata.annotations ?? {}), 'kubernetes.io/description': DESCRIPTION }
    })
  }
}
