// Validation of the built-in kinds the action and its users write, as kube-apiserver's strategies
// run it after defaulting (kubernetes/kubernetes@v1.33: pkg/apis/core/validation ValidateConfigMap,
// ValidateSecret, ValidatePodCreate (containers), ValidateLabels;
// pkg/apis/apps/validation ValidateDeploymentSpec / ValidateDaemonSetSpec / ValidateReplicaSetSpec /
// ValidateStatefulSetSpec — a selector that is present, not empty and matching the template's
// labels, the template's restartPolicy, the immutable selector; pkg/apis/batch/validation — the
// restartPolicy of a Job's pods, the immutable selector; k8s.io/apimachinery/pkg/util/validation
// IsConfigMapKey, IsQualifiedName, IsValidLabelValue). A failure is a 422 with the real wording.
import { configDataErrors } from './config-data.js'
import { type FieldError, goStringMap, goValue, invalidError } from './field-errors.js'
import { parseCron } from './controllers/cron-schedule.js'
import { matchesLabelSelectorObject } from './selectors.js'
import type { KubeObject, ResourceType } from './store.js'
import { typeKey } from './store.js'

type Obj = Record<string, any>

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

const CONFIG_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"
const LABEL_NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
const PREFIX_MSG =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

/** IsConfigMapKey's messages for a key. */
function configKeyErrors(key: string): string[] {
  const out: string[] = []
  if (key.length > 253) out.push('must be no more than 253 characters')
  if (!CONFIG_KEY.test(key)) out.push(CONFIG_KEY_MSG)
  if (key === '.') out.push("must not be '.'")
  else if (key === '..') out.push("must not be '..'")
  else if (key.startsWith('..')) out.push("must not start with '..'")
  return out
}

/** IsQualifiedName's messages for a label key. */
function qualifiedNameErrors(key: string): string[] {
  const parts = key.split('/')
  if (parts.length > 2 || !parts[parts.length - 1])
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
    ]
  const out: string[] = []
  const name = parts[parts.length - 1]
  if (parts.length === 2) {
    const prefix = parts[0]
    if (!prefix) out.push('prefix part must be non-empty')
    else {
      if (prefix.length > 253) out.push('prefix part must be no more than 253 characters')
      if (!DNS_SUBDOMAIN.test(prefix)) out.push(PREFIX_MSG)
    }
  }
  if (name.length > 63) out.push('name part must be no more than 63 characters')
  if (!LABEL_NAME.test(name)) out.push(LABEL_NAME_MSG)
  return out
}

function labelValueErrors(v: string): string[] {
  const out: string[] = []
  if (v.length > 63) out.push('must be no more than 63 characters')
  if (!LABEL_VALUE.test(v)) out.push(LABEL_VALUE_MSG)
  return out
}

/** ValidateLabels: every key a qualified name, every value a label value. */
export function labelErrors(labels: unknown, field: string): FieldError[] {
  const out: FieldError[] = []
  for (const [k, v] of Object.entries((labels ?? {}) as Record<string, unknown>)) {
    for (const d of qualifiedNameErrors(k)) out.push({ type: 'Invalid', field, value: goValue(k), detail: d })
    if (typeof v === 'string')
      for (const d of labelValueErrors(v)) out.push({ type: 'Invalid', field, value: goValue(v), detail: d })
  }
  return out
}

function dataKeyErrors(o: Obj): FieldError[] {
  const out: FieldError[] = []
  const data = Object.keys(o.data ?? {})
  for (const [field, keys] of [
    ['data', data],
    ['binaryData', Object.keys(o.binaryData ?? {})]
  ] as const)
    for (const k of keys) {
      for (const d of configKeyErrors(k))
        out.push({ type: 'Invalid', field: `${field}[${k}]`, value: goValue(k), detail: d })
      if (field === 'binaryData' && data.includes(k))
        out.push({
          type: 'Invalid',
          field: `data[${k}]`,
          value: goValue(k),
          detail: 'duplicate of key present in binaryData'
        })
    }
  return out
}

const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"

/** IsDNS1035Label (a Service's name: ValidateServiceName). */
function dns1035Errors(name: unknown, field: string): FieldError[] {
  if (typeof name !== 'string' || !name) return []
  const out: FieldError[] = []
  if (name.length > 63)
    out.push({ type: 'Invalid', field, value: goValue(name), detail: 'must be no more than 63 characters' })
  if (!DNS1035.test(name)) out.push({ type: 'Invalid', field, value: goValue(name), detail: DNS1035_MSG })
  return out
}

/** validateScheduleFormat (pkg/apis/batch/validation): cron.ParseStandard's error, no TZ prefix. */
function scheduleErrors(spec: Obj | undefined): FieldError[] {
  const schedule = spec?.schedule
  if (typeof schedule !== 'string' || !schedule) return [{ type: 'Required', field: 'spec.schedule' }]
  const out: FieldError[] = []
  try {
    parseCron(schedule)
  } catch (err) {
    out.push({
      type: 'Invalid',
      field: 'spec.schedule',
      value: goValue(schedule),
      detail: (err as Error).message
    })
  }
  if (schedule.includes('TZ'))
    out.push({
      type: 'Invalid',
      field: 'spec.schedule',
      value: goValue(schedule),
      detail: 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'
    })
  return out
}

/** A *metav1.LabelSelector as field errors print it: its generated String() form. */
function goSelector(sel: Obj | undefined): string {
  if (!sel) return 'null'
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map(k => `${k}: ${sel.matchLabels[k]},`)
    .join('')
  const exprs = ((sel.matchExpressions ?? []) as Obj[])
    .map(
      e =>
        `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`
    )
    .join('')
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`
}

function podSpecErrors(spec: Obj | undefined, field: string): FieldError[] {
  const out: FieldError[] = []
  const containers = spec?.containers
  if (!Array.isArray(containers) || !containers.length)
    return [{ type: 'Required', field: `${field}.containers` }]
  containers.forEach((c: Obj, i: number) => {
    if (!c?.name) out.push({ type: 'Required', field: `${field}.containers[${i}].name` })
    if (!c?.image) out.push({ type: 'Required', field: `${field}.containers[${i}].image` })
  })
  return out
}

/** A workload's selector against its pod template (what `kind` says in the empty-selector message). */
function selectorTemplateErrors(spec: Obj, kind: string, restartPolicies: string[]): FieldError[] {
  const out: FieldError[] = []
  const sel = spec.selector
  const empty = !sel || (!Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length)
  if (!sel) out.push({ type: 'Required', field: 'spec.selector' })
  else if (empty)
    out.push({
      type: 'Invalid',
      field: 'spec.selector',
      value: goSelector(sel),
      detail: `empty selector is invalid for ${kind}`
    })
  out.push(...labelErrors(sel?.matchLabels, 'spec.selector.matchLabels'))
  const template = spec.template
  if (!template) return [...out, { type: 'Required', field: 'spec.template' }]
  const labels = template.metadata?.labels
  if (!empty && !matchesLabelSelectorObject(sel, labels))
    out.push({
      type: 'Invalid',
      field: 'spec.template.metadata.labels',
      value: goStringMap(labels),
      detail: '`selector` does not match template `labels`'
    })
  out.push(...labelErrors(labels, 'spec.template.metadata.labels'))
  out.push(...podSpecErrors(template.spec, 'spec.template.spec'))
  const rp = template.spec?.restartPolicy
  if (rp && !restartPolicies.includes(rp))
    out.push({
      type: 'Unsupported',
      field: 'spec.template.spec.restartPolicy',
      value: goValue(rp),
      detail: `supported values: ${restartPolicies.map(p => JSON.stringify(p)).join(', ')}`
    })
  return out
}

const WORKLOADS: Record<string, { kind: string; restart: string[] }> = {
  'deployments.apps': { kind: 'deployment', restart: ['Always'] },
  'daemonsets.apps': { kind: 'daemonset', restart: ['Always'] },
  'replicasets.apps': { kind: 'replicaset', restart: ['Always'] },
  'statefulsets.apps': { kind: 'statefulset', restart: ['Always'] },
  'jobs.batch': { kind: 'job', restart: ['OnFailure', 'Never'] }
}

function specErrors(tk: string, o: Obj): FieldError[] {
  const w = WORKLOADS[tk]
  if (w) return selectorTemplateErrors(o.spec ?? {}, w.kind, w.restart)
  if (tk === 'configmaps' || tk === 'secrets') return dataKeyErrors(o)
  if (tk === 'pods') return podSpecErrors(o.spec, 'spec')
  if (tk === 'services') return dns1035Errors(o.metadata?.name, 'metadata.name')
  if (tk === 'cronjobs.batch') return scheduleErrors(o.spec)
  return []
}

/** Field errors of a new or replaced object of a built-in kind (none for other kinds). */
export function validateObject(t: ResourceType, obj: KubeObject, old?: KubeObject): void {
  const tk = typeKey(t)
  const errs = [...labelErrors(obj.metadata.labels, 'metadata.labels'), ...specErrors(tk, obj)]
  if (old && WORKLOADS[tk] && JSON.stringify(old.spec?.selector) !== JSON.stringify(obj.spec?.selector))
    errs.push({
      type: 'Invalid',
      field: 'spec.selector',
      value: goSelector(obj.spec?.selector),
      detail: 'field is immutable'
    })
  errs.push(...configDataErrors(tk, obj, old))
  if (errs.length) throw invalidError(t, obj.metadata.name, errs)
}
