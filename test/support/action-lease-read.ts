// The action's Lease (src/stack/lease.ts) as a cluster admin reads it in a test: undefined once
// deleted, so a test can tell a released Lease from one left to expire.
import { KubeClient } from '../../src/kube/client.js'
import type { KubeObject } from '../../src/kube/types.js'
import { LEASE_NAME, LEASE_NAMESPACE } from '../../src/stack/lease.js'

/** The action's Lease read through `admin`; undefined when it is not there. */
export function readActionLease(admin: KubeClient): Promise<KubeObject | undefined> {
  return admin
    .get({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: LEASE_NAMESPACE,
      name: LEASE_NAME
    })
    .catch(() => undefined)
}
