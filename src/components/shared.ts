// Pieces more than one component module uses: the privileged namespace the operators run in, and
// the drift reading of which images a set of pods actually runs.
import type { KubeObject } from '../kube/types.js'
import type { KubeManifest } from '../model/types.js'
import { shortValue } from '../util/text.js'

/** A namespace labelled for the privileged pod security level the operators need. */
export function privilegedNamespace(name: string): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } }
  }
}

/** Pod images of `container` that differ from `ok`, as "image on N/M pods (node, …)". */
export function podImages(
  pods: KubeObject[],
  container: string,
  ok: (image: string) => boolean
): { bad: number; summary: string } | undefined {
  const off = new Map<string, string[]>()
  for (const p of pods) {
    const c = (p.spec?.containers ?? []).find((x: { name: string }) => x.name === container)
    if (!c || ok(c.image)) continue
    off.set(c.image, [...(off.get(c.image) ?? []), p.spec?.nodeName ?? p.metadata.name])
  }
  if (off.size === 0) return undefined
  const bad = [...off.values()].reduce((n, l) => n + l.length, 0)
  const summary = [...off.entries()]
    .map(
      ([img, where]) =>
        `${img} on ${where.length}/${pods.length} pods (${where.slice(0, 3).join(', ')}${where.length > 3 ? ', …' : ''})`
    )
    .join('; ')
  return { bad, summary: shortValue(summary, 200) }
}

/** Whether drift already reported `object` itself, or a path in it under `under`. */
export function reported(found: Array<{ field: string }>, object: string, under = ''): boolean {
  return found.some(i => i.field === object || i.field.startsWith(`${object} ${under}`))
}
