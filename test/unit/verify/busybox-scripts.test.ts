// The scripts that run on the digest-pinned busybox image use only what busybox 1.37.0 has: every
// command the node probe, ib-node-config's containers and the device plugin's wait run inside the
// container is an applet busybox's defconfig builds, or an ash builtin (the list and its source:
// test/fixtures/upstream/busybox-applets-EXCERPT.txt). Commands after `nsenter … --` run on the
// node (its modprobe, systemctl, lsmod), not in the image. The probe runs on busybox, never on the
// multi-GB benchmark image.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ibNodeConfigDaemonSet } from '../../../src/components/ib-node-config.js'
import { rdmaDevicePluginManifests } from '../../../src/components/rdma-device-plugin.js'
import { BUSYBOX_IMAGE } from '../../../src/settings/images.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { PROBE_SCRIPT } from '../../../src/verify/probe-output.js'
import { probeDaemonSet } from '../../../src/verify/probe.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

// Built before the tests, not while the file loads (a settings bug fails tests, not the file).
let settings: Settings
beforeAll(() => {
  settings = readSettings(reader(VALID_APPLY), {}).settings
})
const fixture = readFileSync(
  path.resolve(process.cwd(), 'test/fixtures/upstream/busybox-applets-EXCERPT.txt'),
  'utf8'
)
const rows = fixture.split('\n').filter(l => l && !l.startsWith('#'))
const APPLETS = new Set(rows.filter(l => !l.startsWith('builtin')).map(l => l.split(/\s+/)[0]))
const BUILTINS = new Set(
  rows
    .find(l => l.startsWith('builtin'))!
    .split(/\s+/)
    .slice(1)
)
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'for',
  'in',
  'do',
  'done',
  'while',
  'until',
  '!'
])

/** The commands a script runs in its container (first word of each simple command; host commands after nsenter -- left out). */
function containerCommands(script: string): string[] {
  // Single-quoted text is data or a host command line (nsenter … sh -c '…').
  let text = script.replace(/'[^']*'/g, "''")
  // Command substitutions (innermost first) are scripts of their own; double-quoted text is data.
  const pieces: string[] = []
  for (let m = /\$\(([^()]*)\)/.exec(text); m; m = /\$\(([^()]*)\)/.exec(text)) {
    pieces.push(m[1])
    text = text.slice(0, m.index) + 'X' + text.slice(m.index + m[0].length)
  }
  pieces.push(text)
  const out = new Set<string>()
  for (const piece of pieces)
    for (const part of piece.replace(/"[^"]*"/g, 'X').split(/\n|;|\|\||&&|\|/)) {
      const words = part.trim().split(/\s+/).filter(Boolean)
      if (words[0] === 'for') continue
      while (words.length && KEYWORDS.has(words[0])) words.shift()
      if (!words.length || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]) || /^\d?>/.test(words[0])) continue
      out.add(words[0])
    }
  return [...out].sort()
}

function scriptsOnBusybox(): Array<{ where: string; script: string }> {
  const out: Array<{ where: string; script: string }> = []
  const add = (where: string, spec: any) => {
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])])
      if (c.image === BUSYBOX_IMAGE) {
        expect(c.command.slice(0, 2)).toEqual(['sh', '-c'])
        out.push({ where: `${where}/${c.name}`, script: c.command[2] })
      }
  }
  add('probe', (probeDaemonSet(settings, ['n1']) as any).spec.template.spec)
  add('ib-node-config', (ibNodeConfigDaemonSet(settings) as any).spec.template.spec)
  const [, plugin] = rdmaDevicePluginManifests(settings) as any[]
  add('rdma-device-plugin', plugin.spec.template.spec)
  return out
}

describe('pod scripts on busybox 1.37.0', () => {
  it('the probe runs on the pinned busybox (both containers), not on the benchmark image', () => {
    const spec = (probeDaemonSet(settings, ['n1']) as any).spec.template.spec
    expect([...spec.initContainers, ...spec.containers].map((c: any) => c.image)).toEqual([
      BUSYBOX_IMAGE,
      BUSYBOX_IMAGE
    ])
    expect(settings.benchmark.image).not.toBe(BUSYBOX_IMAGE)
  })

  it('every command they run in the container is a busybox applet or an ash builtin', () => {
    const scripts = scriptsOnBusybox()
    expect(scripts.map(s => s.where)).toEqual([
      'probe/probe',
      'probe/hold',
      'ib-node-config/wait-for-ofed-driver',
      'ib-node-config/ib-setup',
      'ib-node-config/keepalive',
      'rdma-device-plugin/wait-for-ib-node-config'
    ])
    const missing = scripts.flatMap(s =>
      containerCommands(s.script)
        .filter(c => !APPLETS.has(c) && !BUILTINS.has(c))
        .map(c => `${s.where}: ${c}`)
    )
    expect(missing).toEqual([])
    expect(containerCommands(PROBE_SCRIPT)).toEqual([
      ':',
      '[',
      'basename',
      'cat',
      'dirname',
      'echo',
      'grep',
      'ls',
      'readlink',
      'ulimit'
    ])
  })

  it('and the options they rely on are built: readlink -f, sleep infinity', () => {
    expect(APPLETS.has('readlink-f')).toBe(true)
    expect(PROBE_SCRIPT).toContain('readlink -f')
    expect(APPLETS.has('sleep-inf')).toBe(true)
  })

  it('the check has teeth: a command busybox lacks is reported', () => {
    expect(
      containerCommands('set -e\nibstat -l | grep -c mlx5\nfor d in $(ls /sys); do nvidia-smi; done')
    ).toEqual(['grep', 'ibstat', 'ls', 'nvidia-smi', 'set'])
  })
})
