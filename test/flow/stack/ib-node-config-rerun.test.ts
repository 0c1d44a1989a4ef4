// ib-node-config after its setup script changed (a new action version) on a running 2-node pool:
// its DaemonSet updates OnDelete, so the DaemonSet controller never replaces the pods that ran the
// earlier script. The earlier version is written as an older action would have (same field
// manager, another script) and its pods recreated from it; apply then writes the DaemonSet,
// deletes exactly those pods, waits until their replacements ran the current script, and leaves
// every other component unchanged; a re-run deletes nothing.
import { jest } from '@jest/globals'
import { ibNodeConfigDaemonSet } from '../../../src/components/ib-node-config.js'
import { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { applyOn, collectLog, stackWorldForTests, storeList } from '../../support/stack-world.js'

jest.setTimeout(240_000)

const IB_SETUP = 'ib-setup'
/** The setup script an init container runs (its command's last word). */
const scriptOf = (spec: any): string | undefined => {
  const c = (spec?.initContainers ?? []).find((x: any) => x.name === IB_SETUP)
  return c?.command?.[c.command.length - 1]
}
const initDone = (p: KubeObject): boolean =>
  (p.status?.initContainerStatuses ?? []).some(
    (s: any) => s.name === IB_SETUP && s.state?.terminated?.exitCode === 0
  )

describe('ib-node-config re-runs where its setup script changed', () => {
  const w = stackWorldForTests({ nodes: 2 })
  const pods = (): KubeObject[] => storeList(w, 'pods', 'kube-system', 'app=ib-node-config')
  const until = async (what: string, ok: () => boolean): Promise<void> => {
    for (let i = 0; i < 1200 && !ok(); i++) await new Promise(r => setTimeout(r, 50))
    if (!ok()) throw new Error(`still not: ${what}`)
  }

  it('deletes only the pods that ran the earlier script; their replacements run the current one', async () => {
    const first = await applyOn(w)
    expect(first.ok).toBe(true)
    const current = scriptOf((ibNodeConfigDaemonSet(w.settings()).spec as any).template.spec)!
    expect(current).toBeDefined()
    expect(pods().map(p => p.metadata.labels?.app)).toEqual(['ib-node-config', 'ib-node-config'])

    // An earlier action version: the same DaemonSet with another script, written by the action's
    // field manager; its pods recreated from it (OnDelete: only a deletion makes new ones).
    const earlier = structuredClone(ibNodeConfigDaemonSet(w.settings())) as KubeObject
    const setup = earlier.spec.template.spec.initContainers.find((c: any) => c.name === IB_SETUP)
    setup.command[setup.command.length - 1] = `# an earlier version of the setup\n${current}`
    const old = KubeClient.fromFile(w.kubeconfigPath, { retries: 0, fieldManager: 'aks-rdma-action' })
    await old.applyManifest(earlier, { force: true })
    for (const p of pods())
      await old.deleteObject({
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: p.metadata.namespace,
        name: p.metadata.name
      })
    await until('two pods of the earlier script, set up', () => {
      const ps = pods()
      return ps.length === 2 && ps.every(p => scriptOf(p.spec) !== current && initDone(p))
    })
    const stale = new Set(pods().map(p => p.metadata.uid))

    const deleted: string[] = []
    const stop = w.sim.store.onChange((e, t) => {
      if (t.kind === 'Pod' && e.type === 'DELETED' && e.object.metadata.labels?.app === 'ib-node-config')
        deleted.push(e.object.metadata.uid!)
    })
    const log = collectLog()
    const res = await applyOn(w, { runId: 'run-2', log })
    stop()
    if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
    expect(res.ok).toBe(true)

    // Exactly the stale pods were deleted, by this run; only ib-node-config changed.
    expect(new Set(deleted)).toEqual(stale)
    const changed = res.steps.filter(s => s.changed).map(s => s.name)
    expect(changed).toEqual(['ib-node-config'])
    const step = res.steps.find(s => s.name === 'ib-node-config')!
    expect(step.detail).toMatch(/daemonset\/ib-node-config -n kube-system updated/)
    expect(step.detail?.match(/ran an earlier version; its replacement runs the current one/g)).toHaveLength(
      2
    )
    // Ready means every node's pod ran the current script to completion.
    const now = pods()
    expect(now).toHaveLength(2)
    for (const p of now) {
      expect(stale.has(p.metadata.uid)).toBe(false)
      expect(scriptOf(p.spec)).toBe(current)
      expect(initDone(p)).toBe(true)
    }

    // A re-run finds nothing to replace.
    const again = await applyOn(w, { runId: 'run-3' })
    expect(again.ok).toBe(true)
    expect(again.steps.filter(s => s.changed)).toEqual([])
    expect(
      pods()
        .map(p => p.metadata.uid)
        .sort()
    ).toEqual(now.map(p => p.metadata.uid).sort())
  })
})
