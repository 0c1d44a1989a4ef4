// `kubectl logs -f`: GET pods/<name>/log?follow=true answers what the container logged so far and
// then keeps the response open, writing each line as the container prints it, until the container
// ends, the pod goes, or the client leaves (kubernetes/kubernetes@v1.33 pkg/registry/core/pod/rest/log.go
// with the kubelet's streaming log reader).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parseBool } from './parse-bool.js'
import type { ResourceRoute } from './route.js'
import type { VerbEnv } from './handlers.js'
import { ApiError } from './status.js'
import type { PodStreams } from './stream/upgrade.js'

export function wantsFollow(q: URLSearchParams): boolean {
  return parseBool(q, 'follow')
}

export function followLog(
  env: VerbEnv,
  route: ResourceRoute,
  q: URLSearchParams,
  _req: IncomingMessage,
  res: ServerResponse,
  streams: PodStreams | undefined
): void {
  const pod = env.store.get(route.type, route.namespace, route.name!)
  const names: string[] = (pod.spec?.containers ?? []).map((c: any) => c.name)
  const container = q.get('container') ?? (names.length === 1 ? names[0] : undefined)
  if (!container)
    throw new ApiError(
      400,
      'BadRequest',
      `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]`
    )
  const tail = q.get('tailLines')
  const text = env.logs?.(pod.metadata.namespace!, pod.metadata.name, container, {
    ...(tail ? { tailLines: Number(tail) } : {})
  })
  if (text === undefined)
    throw new ApiError(
      400,
      'BadRequest',
      `container "${container}" in pod "${pod.metadata.name}" is waiting to start: ContainerCreating`
    )
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' })
  res.write(text)
  if (!streams) {
    res.end()
    return
  }
  const stop = streams.followLog(
    pod.metadata.namespace!,
    pod.metadata.name,
    container,
    t => res.write(t),
    () => res.end()
  )
  res.on('close', stop)
}
