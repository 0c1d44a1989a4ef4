// The upstream CustomResourceDefinition files of the charts the simulator serves (*.yaml next to
// this module, see SOURCES.md), by file name. Read from disk here; the dist/cli.js bundle carries
// their texts inline instead (script/build.mjs replaces this module with one that holds them).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** File name → text of every .yaml file in this folder. */
export function crdFiles(): Record<string, string> {
  const dir = path.dirname(fileURLToPath(import.meta.url))
  const out: Record<string, string> = {}
  for (const name of readdirSync(dir).sort())
    if (name.endsWith('.yaml')) out[name] = readFileSync(path.join(dir, name), 'utf8')
  return out
}
