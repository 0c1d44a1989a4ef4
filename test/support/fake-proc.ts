// The fake node root's /proc for scripts run by a real shell: /proc/modules and the limits of the
// host services' current PIDs, as the simulator's host tools report them (hostProcFiles). Written
// when the fake root is made and again after every node tool call (a restart changes a service's
// PID and limits; a modprobe changes the modules), so `cat /proc/<pid>/limits` by real coreutils
// sees what the simulator's `cat` sees.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { NodeHardware } from '../../sim/kube/hardware.js'
import { hostProcFiles } from '../../sim/kube/workloads/host-tools.js'

export function writeHostProcFiles(root: string, hw: NodeHardware): void {
  const proc = path.join(root, 'proc')
  mkdirSync(proc, { recursive: true })
  for (const name of readdirSync(proc))
    if (/^\d+$/.test(name)) rmSync(path.join(proc, name), { recursive: true, force: true })
  for (const [p, content] of Object.entries(hostProcFiles(hw))) {
    const file = path.join(root, p)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
}
