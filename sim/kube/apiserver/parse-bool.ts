// Boolean query parameters (watch, allowWatchBookmarks, sendInitialEvents, force, …) as the API
// server's parameter codec converts them (kubernetes/kubernetes@v1.33
// staging/src/k8s.io/apimachinery/pkg/runtime/conversion.go Convert_Slice_string_To_bool): absent,
// "false" or "0" (any case) is false; any other value — "true", "True", "1", "t", even empty — is true.

export function parseBool(q: URLSearchParams, name: string): boolean {
  const v = q.get(name)
  if (v === null) return false
  const lower = v.toLowerCase()
  return lower !== 'false' && lower !== '0'
}
