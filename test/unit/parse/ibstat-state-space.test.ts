// Every port state and physical state each tool can print, rendered with the tool's own string
// table, read back and judged: the state space upstream defines, not only the states our captures
// show. Sources: rdma-core v64.0 infiniband-diags/ibstat.c (port_state_str, port_phy_state_str,
// "???" past the table), libibverbs/examples/devinfo.c (port_state_str, port_phy_state_str,
// "invalid state"), Linux drivers/infiniband/core/sysfs.c (state_show, phys_state_show; what
// ibstatus prints) and iproute2 rdma/link.c (link_state_to_str, phys_state_to_str).
import { describe, expect, it } from '@jest/globals'
import {
  parseIbstat,
  unhealthyInfinibandPorts,
  type PhysicalState,
  type PortState
} from '../../../src/parse/ibstat.js'

/** What each code means (IBTA PortInfo PortState / PortPhysicalState). */
const STATE: Record<number, PortState> = {
  0: 'Unknown',
  1: 'Down',
  2: 'Init',
  3: 'Armed',
  4: 'Active',
  5: 'ActiveDefer'
}
const PHYS: Record<number, PhysicalState> = {
  0: 'NoStateChange',
  1: 'Sleep',
  2: 'Polling',
  3: 'Disabled',
  4: 'PortConfigurationTraining',
  5: 'LinkUp',
  6: 'LinkErrorRecovery',
  7: 'PhyTest'
}
const STATE_CODES = [0, 1, 2, 3, 4, 5, 6]
const PHYS_CODES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11]

const pick = (table: readonly string[], code: number, past: string) =>
  code < table.length ? table[code] : past

interface Tool {
  name: string
  render(state: number, phys: number): string
  /** What the printed text still says of a code (a tool that prints "???" loses it). */
  state(code: number): PortState
  phys(code: number): PhysicalState
}

const ibstat: Tool = {
  name: 'ibstat',
  render: (s, p) =>
    [
      "CA 'mlx5_ib0'",
      '\tCA type: MT4129',
      '\tNumber of ports: 1',
      '\tFirmware version: 28.39.1002',
      '\tNode GUID: 0x00155dfffe340001',
      '\tPort 1:',
      `\t\tState: ${s <= 4 ? pick(['???', 'Down', 'Initializing', 'Armed', 'Active'], s, '???') : '???'}`,
      `\t\tPhysical state: ${pick(['No state change', 'Sleep', 'Polling', 'Disabled', 'PortConfigurationTraining', 'LinkUp', 'LinkErrorRecovery', 'PhyTest'], p, '???')}`,
      '\t\tRate: 400',
      '\t\tLink layer: InfiniBand',
      ''
    ].join('\n'),
  state: c => (c >= 1 && c <= 4 ? STATE[c] : 'Unknown'),
  phys: c => PHYS[c] ?? 'Unknown'
}

const devinfo: Tool = {
  name: 'ibv_devinfo -v',
  render: (s, p) =>
    [
      'hca_id:\tmlx5_ib0',
      '\ttransport:\t\t\tInfiniBand (0)',
      '\tfw_ver:\t\t\t\t28.39.1002',
      '\tvendor_part_id:\t\t\t4129',
      '\tphys_port_cnt:\t\t\t1',
      '\t\tport:\t1',
      `\t\t\tstate:\t\t\t${pick(['invalid state', 'PORT_DOWN', 'PORT_INIT', 'PORT_ARMED', 'PORT_ACTIVE'], s, 'invalid state')} (${s})`,
      '\t\t\tlink_layer:\t\tInfiniBand',
      `\t\t\tphys_state:\t\t${pick(['invalid physical state', 'SLEEP', 'POLLING', 'DISABLED', 'PORT_CONFIGURATION TRAINNING', 'LINK_UP', 'LINK_ERROR_RECOVERY', 'PHY TEST'], p, 'invalid physical state')} (${p})`,
      ''
    ].join('\n'),
  // The code is printed beside the words, so nothing is lost.
  state: c => STATE[c] ?? 'Unknown',
  phys: c => PHYS[c] ?? 'Unknown'
}

/** ibstatus prints the kernel's sysfs files; kernels before and after 5.4 spell two phys states differently. */
function ibstatus(physNames: readonly string[], name: string): Tool {
  return {
    name,
    render: (s, p) =>
      [
        "Infiniband device 'mlx5_ib0' port 1 status:",
        '\tdefault gid:\t fe80:0000:0000:0000:0015:5dff:fe34:0001',
        '\tbase lid:\t 0x1',
        `\tstate:\t\t ${s}: ${pick(['NOP', 'DOWN', 'INIT', 'ARMED', 'ACTIVE', 'ACTIVE_DEFER'], s, 'UNKNOWN')}`,
        `\tphys state:\t ${p}: ${pick(physNames, p, physNames[0])}`,
        '\trate:\t\t 400 Gb/sec (4X NDR)',
        '\tlink_layer:\t InfiniBand',
        ''
      ].join('\n'),
    state: c => STATE[c] ?? 'Unknown',
    phys: c => PHYS[c] ?? 'Unknown'
  }
}

const rdmaLink: Tool = {
  name: 'rdma link show',
  render: (s, p) =>
    `link mlx5_ib0/1 subnet_prefix fe80:0000:0000:0000 lid 1 sm_lid 1 lmc 0 state ${pick(['NOP', 'DOWN', 'INIT', 'ARMED', 'ACTIVE', 'ACTIVE_DEFER'], s, 'UNKNOWN')} physical_state ${pick(['NOP', 'SLEEP', 'POLLING', 'DISABLED', 'ARMED', 'LINK_UP', 'LINK_ERROR_RECOVER', 'PHY_TEST', 'UNKNOWN', 'OPA_OFFLINE', 'UNKNOWN', 'OPA_TEST'], p, 'UNKNOWN')}\n`,
  state: c => STATE[c] ?? 'Unknown',
  // The words alone: past PhyTest they name OPA states or UNKNOWN.
  phys: c => PHYS[c] ?? 'Unknown'
}

const TOOLS: Tool[] = [
  ibstat,
  devinfo,
  ibstatus(
    [
      '<unknown>',
      'Sleep',
      'Polling',
      'Disabled',
      'PortConfigurationTraining',
      'LinkUp',
      'LinkErrorRecovery',
      'Phy Test'
    ],
    'ibstatus (kernel < 5.4 sysfs)'
  ),
  ibstatus(
    [
      'Unknown',
      'Sleep',
      'Polling',
      'Disabled',
      'PortConfigurationTraining',
      'LinkUp',
      'LinkErrorRecovery',
      'PhyTest'
    ],
    'ibstatus (kernel ≥ 5.4 sysfs)'
  ),
  rdmaLink
]

describe.each(TOOLS)('$name: every port state × physical state', tool => {
  const cases = STATE_CODES.flatMap(s => PHYS_CODES.map(p => [s, p] as const))
  it.each(cases)('state %i, physical state %i', (s, p) => {
    const r = parseIbstat(tool.render(s, p))
    expect(r.error).toBeNull()
    expect(r.ports).toHaveLength(1)
    const port = r.ports[0]
    expect(port).toMatchObject({ ca: 'mlx5_ib0', port: 1, state: tool.state(s), physicalState: tool.phys(p) })
    // Healthy only when Active and LinkUp: ActiveDefer, Armed, training, recovery all count.
    const healthy = s === 4 && p === 5
    expect(unhealthyInfinibandPorts(r)).toHaveLength(healthy ? 0 : 1)
  })
})
