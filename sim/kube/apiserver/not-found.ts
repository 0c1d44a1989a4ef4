// The two 404s of a path nothing serves, as kube-apiserver v1.33 answers them: inside a built-in
// group-version (go-restful's container, K:staging/src/k8s.io/apiserver/pkg/server/handler.go
// `serviceErrorHandler` → errors.NewGenericServerResponse) a Status with empty `details`; anywhere
// else (an unknown group or version, a custom group's unknown resource, a non-API path) the end of
// the delegation chain, K:staging/src/k8s.io/apiserver/pkg/util/notfoundhandler/notfoundhandler.go:
// Go's http.NotFound, plain text.
import type { ObjectStore } from '../store.js'
import { BUILTIN_GROUPS } from '../resources.js'
import { ApiError } from './status.js'

/** A 404 answered as Go's http.NotFound does: `404 page not found`, text/plain. */
export class PathNotFound extends ApiError {
  constructor() {
    super(404, 'NotFound', '404 page not found')
  }
  body(): string {
    return '404 page not found\n'
  }
}

/** go-restful's 404 inside a served group-version: `details` present and empty. */
export function resourceNotFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {})
}

/** Whether `group/version` is one of the built-in group-versions the server's go-restful container serves. */
function builtinGroupVersion(store: ObjectStore, group: string, version: string): boolean {
  if (!BUILTIN_GROUPS.has(group)) return false
  return store.types().some(t => t.group === group && t.version === version)
}

/** The 404 for a resource path that names nothing the server serves. */
export function unservedPath(store: ObjectStore, group: string, version: string): ApiError {
  return builtinGroupVersion(store, group, version) ? resourceNotFound() : new PathNotFound()
}
