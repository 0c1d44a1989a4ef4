// A node probe's termination message (src/verify/probe-output.ts) for the ports an ibstat text
// shows (real port data from the fixtures), written as sysfs has them, which is what the probe prints.
import { parseIbstat } from '../../src/parse/ibstat.js'
import { PROBE_HEADER } from '../../src/verify/probe-output.js'

export interface ProbeMessageOptions {
  /** `ulimit -l`; unlimited by default. */
  memlock?: string
  /** The nvidia_peermem line count, or `?` (unreadable); 1 by default. */
  peermem?: string
  /** nic/gpu lines. */
  topology?: string[]
  /** The devices the pod can open (the `verbs` line); no such line when absent. */
  verbs?: string[]
  /** false: cut short (no end line). */
  end?: boolean
}

/** The state file's text (`4: ACTIVE`), as the kernel writes it. */
const STATE_FILE: Record<string, string> = {
  Unknown: '0: NOP',
  Down: '1: DOWN',
  Init: '2: INIT',
  Armed: '3: ARMED',
  Active: '4: ACTIVE',
  ActiveDefer: '5: ACTIVE_DEFER'
}

/** The phys_state file's text (`5: LinkUp`); a state the kernel would not print stays a word. */
const PHYS_STATE_FILE: Record<string, string> = {
  Sleep: '1: Sleep',
  Polling: '2: Polling',
  Disabled: '3: Disabled',
  PortConfigurationTraining: '4: PortConfigurationTraining',
  LinkUp: '5: LinkUp',
  LinkErrorRecovery: '6: LinkErrorRecovery',
  PhyTest: '7: Phy Test'
}

export function probeMessage(ibstat: string, o: ProbeMessageOptions = {}): string {
  const ports = parseIbstat(ibstat).ports.map(
    p =>
      `port ${p.ca} ${p.port} ${p.linkLayer ?? ''}|${STATE_FILE[p.state] ?? p.state}|${p.physicalState ? (PHYS_STATE_FILE[p.physicalState] ?? p.physicalState) : ''}|${p.rateGbps ?? 10} Gb/sec (4X)`
  )
  return [
    PROBE_HEADER,
    ...(o.topology ?? []),
    ...ports,
    ...(o.verbs ? [['verbs', ...o.verbs].join(' ')] : []),
    `memlock ${o.memlock ?? 'unlimited'}`,
    `peermem ${o.peermem ?? '1'}`,
    ...(o.end === false ? [] : ['end'])
  ].join('\n')
}
