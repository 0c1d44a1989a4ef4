// The official Kubernetes .proto definitions the simulated API server speaks (proto/, see
// proto/SOURCES.md), by their import path (`k8s.io/api/core/v1/generated.proto`). Read from disk
// next to this module; the dist/cli.js bundle carries them inline instead (script/build.mjs
// replaces this module with one that holds the same texts).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

function walk(dir: string, base: string, out: Record<string, string>): void {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) walk(full, base, out)
    else if (name.endsWith('.proto'))
      out[path.relative(base, full).split(path.sep).join('/')] = readFileSync(full, 'utf8')
  }
}

/** Import path → text of every .proto file under proto/. */
export function protoFiles(): Record<string, string> {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'proto')
  const out: Record<string, string> = {}
  walk(dir, dir, out)
  return out
}
