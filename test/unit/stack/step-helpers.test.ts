// The stack walk's small decisions: a watch's end as a component step's failure (fail-fast reason,
// or "not ready after" with the last state), the report's action for what converging wrote, the
// installed version read from a release or a manifest field, and the Lease's MicroTime.
import { describe, expect, it } from '@jest/globals'
import type { ComponentSpec } from '../../../src/components/types.js'
import type { HealthVerdict } from '../../../src/health/types.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { WatchFailError, WatchTimeoutError } from '../../../src/kube/watch.js'
import type { KubeManifest } from '../../../src/model/types.js'
import { microTime } from '../../../src/stack/lease.js'
import { actionOf, ComponentStepFailure, stepFailureOf } from '../../../src/stack/run.js'
import { installedVersion } from '../../../src/stack/upgrade.js'

const verdict = (message: string, fail?: string): HealthVerdict => ({
  done: false,
  message,
  ...(fail ? { fail } : {}),
  readyNodes: 0,
  totalNodes: 2,
  nodes: []
})
const pods = { pods: [{ metadata: { name: 'p' } } as KubeObject] }

describe('stepFailureOf', () => {
  it('turns a fail-fast verdict into the step’s failure, with the verdict and what the watch saw', () => {
    const v = verdict('0/2 ready', 'mofed pod crash-looping on node-1')
    const f = stepFailureOf(new WatchFailError(v, pods), { started: Date.now(), limit: 'wait-timeout 25m' })
    expect(f).toBeInstanceOf(ComponentStepFailure)
    expect((f as ComponentStepFailure).message).toBe('mofed pod crash-looping on node-1')
    expect((f as ComponentStepFailure).verdict).toBe(v)
    expect((f as ComponentStepFailure).snapshot).toBe(pods)
    const nameless = stepFailureOf(new WatchFailError({ done: false } as HealthVerdict, pods), {
      started: 0,
      limit: 'x'
    })
    expect((nameless as Error).message).toBe('failed')
  })

  it('says a timeout as "not ready after <elapsed> (<limit>)" with the last state seen', () => {
    const v = verdict('1/2 nodes ready')
    const started = Date.now() - 90_000
    // The timeout's own verdict wins over the step's last one.
    const f = stepFailureOf(new WatchTimeoutError(v, pods, 90_000), {
      started,
      limit: 'wait-timeout 90s',
      last: verdict('0/2 nodes ready')
    })
    expect((f as Error).message).toMatch(
      /^not ready after (\d+[hm])*\d+m?s \(wait-timeout 90s\): 1\/2 nodes ready$/
    )
    // Counted from when the step started (90 s ago), not from the error.
    expect((f as Error).message).toMatch(/^not ready after (\d+h)?\d+m\d*s? /)
    expect((f as ComponentStepFailure).verdict).toBe(v)
    expect((f as ComponentStepFailure).snapshot).toBe(pods)
  })

  it('falls back to the step’s own last verdict and snapshot when the timeout carries none', () => {
    const last = verdict('waiting for the pool')
    const own = { nodes: [] as KubeObject[] }
    const f = stepFailureOf(new WatchTimeoutError(undefined, undefined as never, 1000), {
      started: Date.now(),
      limit: 'l',
      last,
      snapshot: own
    }) as ComponentStepFailure
    expect(f.message).toMatch(/^not ready after (\d+[hm])*\d+m?s \(l\): waiting for the pool$/)
    expect(f.verdict).toBe(last)
    expect(f.snapshot).toBe(own)
    const bare = stepFailureOf(new WatchTimeoutError(undefined, pods, 1000), {
      started: Date.now(),
      limit: 'l'
    })
    expect((bare as Error).message).toMatch(/^not ready after (\d+[hm])*\d+m?s \(l\)$/)
    // A verdict with no message adds nothing after the limit.
    const empty = stepFailureOf(new WatchTimeoutError(verdict(''), {}, 5000), {
      started: Date.now() - 5000,
      limit: 'L'
    })
    expect((empty as Error).message).toMatch(/^not ready after \d+s \(L\)$/)
  })

  it('returns any other error unchanged', () => {
    const e = new Error('HTTP 500')
    expect(stepFailureOf(e, { started: 0, limit: 'l' })).toBe(e)
    expect(stepFailureOf('text', { started: 0, limit: 'l' })).toBe('text')
  })
})

describe('actionOf', () => {
  it('is created, updated or unchanged', () => {
    expect(actionOf({ changed: true, created: true })).toBe('created')
    expect(actionOf({ changed: true, created: false })).toBe('updated')
    expect(actionOf({ changed: false, created: true })).toBe('unchanged')
    expect(actionOf({ changed: false, created: false })).toBe('unchanged')
  })
})

describe('versions', () => {
  const manifest = (kind: string) => ({ apiVersion: 'v1', kind, metadata: { name: 'x' } }) as KubeManifest
  const spec = (version?: ComponentSpec['version']) => ({ version }) as ComponentSpec

  it('reads the installed version from the release, or from the manifest field the component names', () => {
    const live = [
      {
        manifest: manifest('NicClusterPolicy'),
        live: {
          spec: { ofedDriver: { version: 'doca3.4.1-26.04-1.1.0.0-1', retries: 3 } }
        } as unknown as KubeObject
      },
      { manifest: manifest('ConfigMap'), live: undefined }
    ]
    expect(installedVersion(spec({ value: 'v26.4.1' }), { chartVersion: 'v26.4.0', live })).toBe('v26.4.0')
    const field = (path: string[], kind = 'NicClusterPolicy') => spec({ value: 'x', field: { kind, path } })
    expect(installedVersion(field(['spec', 'ofedDriver', 'version']), { live })).toBe(
      'doca3.4.1-26.04-1.1.0.0-1'
    )
    expect(installedVersion(field(['spec', 'ofedDriver', 'retries']), { live })).toBe('3')
    expect(installedVersion(field(['spec', 'ofedDriver']), { live })).toBeUndefined()
    expect(installedVersion(field(['spec', 'nope', 'version']), { live })).toBeUndefined()
    expect(installedVersion(field(['data'], 'ConfigMap'), { live })).toBeUndefined()
    expect(installedVersion(field(['x'], 'Secret'), { live })).toBeUndefined()
    expect(installedVersion(spec(undefined), { chartVersion: 'v1', live })).toBeUndefined()
  })
})

describe('microTime', () => {
  it('is RFC 3339 with six fractional digits, in UTC', () => {
    expect(microTime(Date.UTC(2026, 11, 2, 14, 50, 25, 7))).toBe('2026-12-02T14:50:25.007000Z')
    expect(microTime(0)).toBe('1970-01-01T00:00:00.000000Z')
  })
})
