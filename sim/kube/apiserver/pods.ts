// The pod subresources served from the store and the node's logs: `log` (current and
// `--previous`, tail), and `binding` (what a scheduler writes). exec / attach / portforward are
// upgraded streams (stream/).
import type { KubeObject } from '../store.js'
import {
  type Reply,
  type VerbEnv,
  type VerbRequest,
  getLive,
  invalid,
  isDryRun,
  parseBody
} from './handlers.js'
import { ApiError, statusSuccess } from './status.js'
import { parseBool } from './parse-bool.js'

export function podLog(env: VerbEnv, r: VerbRequest): Reply {
  const pod = getLive(env, r.route)
  const containers: string[] = (pod.spec?.containers ?? []).map((c: any) => c.name)
  let container = r.query.get('container') ?? undefined
  if (!container) {
    if (containers.length > 1)
      throw new ApiError(
        400,
        'BadRequest',
        `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${containers.join(' ')}]`
      )
    container = containers[0]
  } else if (
    containers.length &&
    !containers.includes(container) &&
    !(pod.spec?.initContainers ?? []).some((c: any) => c.name === container)
  )
    throw new ApiError(400, 'BadRequest', `container ${container} is not valid for pod ${pod.metadata.name}`)
  const q = r.query
  const num = (k: string) => (q.get(k) ? { [k]: Number(q.get(k)) } : {})
  const previous = parseBool(q, 'previous')
  const text = env.logs?.(pod.metadata.namespace!, pod.metadata.name, container, {
    ...num('tailLines'),
    ...num('sinceSeconds'),
    ...num('limitBytes'),
    ...(previous ? { previous } : {}),
    ...(parseBool(q, 'timestamps') ? { timestamps: true } : {})
  })
  if (previous && text === undefined)
    throw new ApiError(
      400,
      'BadRequest',
      `previous terminated container "${container}" in pod "${pod.metadata.name}" not found`
    )
  if (text === undefined && containerStarted(pod, container))
    return { status: 200, body: '', contentType: 'text/plain' }
  if (text === undefined)
    throw new ApiError(
      400,
      'BadRequest',
      `container "${container ?? ''}" in pod "${pod.metadata.name}" is waiting to start: ContainerCreating`
    )
  return { status: 200, body: text, contentType: 'text/plain' }
}

/** The container is running or has run (a started container with no output has an empty log). */
function containerStarted(pod: KubeObject, container: string | undefined): boolean {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]
  const st = statuses.find((s: any) => s.name === container)?.state
  return !!(st?.running || st?.terminated)
}

export function podBinding(env: VerbEnv, r: VerbRequest): Reply {
  const binding = parseBody(r)
  const node = binding?.target?.name
  if (!node) throw invalid(r.route.type, r.route.name!, 'target.name', 'Required value')
  const live = getLive(env, r.route)
  if (live.spec?.nodeName)
    throw new ApiError(
      409,
      'Conflict',
      `pod ${live.metadata.name} is already assigned to node "${live.spec.nodeName}"`
    )
  if (!isDryRun(r.query)) env.store.update(r.route.type, { ...live, spec: { ...live.spec, nodeName: node } })
  return { status: 201, body: statusSuccess() }
}
