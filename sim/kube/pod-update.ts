// What a pod update may change, as kube-apiserver 1.33 validates it (kubernetes/kubernetes@v1.33.2
// pkg/apis/core/validation/validation.go): ValidatePodUpdate — besides metadata, only
// `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds` (set,
// or lowered), `spec.tolerations` (additions only), `spec.terminationGracePeriodSeconds` (to 1
// from a negative value) and `spec.schedulingGates` (removals only); anything else is `spec:
// Forbidden: pod updates may not change fields other than …` (422) — and
// ValidatePodEphemeralContainersUpdate for the ephemeralcontainers subresource: existing ephemeral
// containers may be neither removed nor changed, a new one needs a name unique among all the pod's
// containers and an image, and none may set ports, probes, lifecycle or resources.
import { type FieldError, goValue, invalidError } from './field-errors.js'
import { sameJson } from './store.js'
import type { KubeObject, ResourceType } from './store.js'

type Obj = Record<string, any>

const UPDATABLE =
  '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'

/** The changed top-level PodSpec fields, as a short stand-in for the cmp.Diff the real message carries. */
function specDiff(old: Obj, next: Obj): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort()
  const lines = keys
    .filter(k => !sameJson(old[k], next[k]))
    .flatMap(k => [
      `- \t${k}: ${JSON.stringify(old[k] ?? null)},`,
      `+ \t${k}: ${JSON.stringify(next[k] ?? null)},`
    ])
  return ['  core.PodSpec{', ...lines, '  }'].join('\n')
}

/** ValidatePodUpdate's spec rule: 422 when `next` changes more than the mutable fields. */
export function validatePodUpdate(t: ResourceType, old: KubeObject, next: KubeObject): void {
  const o: Obj = old.spec ?? {}
  const n: Obj = next.spec ?? {}
  const errs: FieldError[] = []
  const munged: Obj = structuredClone(n)
  for (const list of ['containers', 'initContainers'] as const) {
    const before: Obj[] = o[list] ?? []
    const after: Obj[] = munged[list] ?? []
    if (before.length === after.length)
      after.forEach((c, i) => {
        if (c && before[i]) c.image = before[i].image
      })
  }
  const ads = n.activeDeadlineSeconds
  if (ads !== undefined && ads !== null) {
    if (
      o.activeDeadlineSeconds === undefined ||
      o.activeDeadlineSeconds === null ||
      ads <= o.activeDeadlineSeconds
    )
      munged.activeDeadlineSeconds = o.activeDeadlineSeconds
    else
      errs.push({
        type: 'Invalid',
        field: 'spec.activeDeadlineSeconds',
        value: goValue(ads),
        detail: 'must be less than or equal to previous value'
      })
  } else if (o.activeDeadlineSeconds !== undefined && o.activeDeadlineSeconds !== null)
    errs.push({
      type: 'Invalid',
      field: 'spec.activeDeadlineSeconds',
      value: 'null',
      detail: 'must not update from a positive integer to nil value'
    })
  const oldTol: Obj[] = o.tolerations ?? []
  const newTol: Obj[] = n.tolerations ?? []
  if (oldTol.every(ot => newTol.some(nt => sameJson(ot, nt)))) munged.tolerations = o.tolerations
  if (
    typeof o.terminationGracePeriodSeconds === 'number' &&
    o.terminationGracePeriodSeconds < 0 &&
    n.terminationGracePeriodSeconds === 1
  )
    munged.terminationGracePeriodSeconds = o.terminationGracePeriodSeconds
  const oldGates: Obj[] = o.schedulingGates ?? []
  const newGates: Obj[] = n.schedulingGates ?? []
  if (newGates.every(g => oldGates.some(og => sameJson(g, og)))) munged.schedulingGates = o.schedulingGates
  // Ephemeral containers change only through their subresource; the main resource keeps them.
  munged.ephemeralContainers = o.ephemeralContainers
  if (!sameJson(munged, o))
    errs.push({
      type: 'Forbidden',
      field: 'spec',
      detail: `pod updates may not change fields other than ${UPDATABLE}\n${specDiff(o, munged)}`
    })
  if (errs.length) throw invalidError(t, next.metadata.name, errs)
}

const EPHEMERAL_FORBIDDEN = [
  'ports',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'resources',
  'resizePolicy'
]

/** ValidatePodEphemeralContainersUpdate (the ephemeralcontainers subresource). */
export function validateEphemeralUpdate(t: ResourceType, old: KubeObject, next: KubeObject): void {
  const errs: FieldError[] = []
  const before: Obj[] = old.spec?.ephemeralContainers ?? []
  const after: Obj[] = next.spec?.ephemeralContainers ?? []
  for (const oc of before) {
    const nc = after.find(c => c?.name === oc.name)
    if (!nc)
      errs.push({
        type: 'Forbidden',
        field: 'spec.ephemeralContainers',
        detail: `existing ephemeral containers "${oc.name}" may not be removed\n`
      })
    else if (!sameJson(oc, nc))
      errs.push({
        type: 'Forbidden',
        field: 'spec.ephemeralContainers',
        detail: `existing ephemeral containers "${oc.name}" may not be changed\n`
      })
  }
  const taken = new Set<string>(
    [...(next.spec?.containers ?? []), ...(next.spec?.initContainers ?? [])].map((c: Obj) => c.name)
  )
  after.forEach((c, i) => {
    const path = `spec.ephemeralContainers[${i}]`
    if (!c?.name) errs.push({ type: 'Required', field: `${path}.name` })
    else if (taken.has(c.name))
      errs.push({ type: 'Duplicate', field: `${path}.name`, value: goValue(c.name) })
    else taken.add(c.name)
    if (!c?.image) errs.push({ type: 'Required', field: `${path}.image` })
    for (const f of EPHEMERAL_FORBIDDEN)
      if (c?.[f] !== undefined && !(f === 'resources' && !Object.keys(c[f] ?? {}).length))
        errs.push({
          type: 'Forbidden',
          field: `${path}.${f}`,
          detail: 'cannot be set for an Ephemeral Container'
        })
  })
  if (errs.length) throw invalidError(t, next.metadata.name, errs)
}
