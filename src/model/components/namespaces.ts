// Namespaces the operators run in, labelled for the privileged pod security level they need.
import type { KubeManifest } from '../types.js'

export function privilegedNamespace(name: string): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } }
  }
}
