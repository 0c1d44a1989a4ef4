// The ibstat-family parser on every form a port state, physical state, link layer and rate take
// in ibstat, ibstatus, ibv_devinfo and `rdma link show`, plus the corners of each format: a line
// that only looks like a header, CRLF output, the error lines and what is kept of them. (Real
// captures and their expected parses: test/unit/parse/ibstat-fixtures.test.ts.)
import { describe, expect, it } from '@jest/globals'
import {
  infinibandPorts,
  normalizeLinkLayer,
  normalizePhysicalState,
  normalizeState,
  parseIbstat,
  unhealthyInfinibandPorts
} from '../../../src/parse/ibstat.js'
import { ibDevice, ibPort } from '../../support/ibstat-ports.js'
import { textLines } from '../../support/text-lines.js'

describe('port states in every spelling', () => {
  const NORMALIZE = {
    state: normalizeState,
    physical: normalizePhysicalState,
    'link layer': normalizeLinkLayer
  } as const
  it.each<[keyof typeof NORMALIZE, string, string | null]>([
    ['state', 'Active', 'Active'],
    ['state', '4: ACTIVE', 'Active'],
    ['state', 'PORT_ACTIVE (4)', 'Active'],
    ['state', 'Down', 'Down'],
    ['state', '1: DOWN', 'Down'],
    ['state', 'PORT_DOWN (1)', 'Down'],
    ['state', 'Init', 'Init'],
    ['state', 'Initialize', 'Init'],
    ['state', 'INITIALIZING', 'Init'],
    ['state', '2: INIT', 'Init'],
    ['state', 'PORT_INIT (2)', 'Init'],
    ['state', 'Armed', 'Armed'],
    ['state', '3: ARMED', 'Armed'],
    ['state', 'PORT_ARMED (3)', 'Armed'],
    ['state', 'Active_defer', 'ActiveDefer'],
    ['state', 'PORT_ACTIVE_DEFER (5)', 'ActiveDefer'],
    ['state', '0', 'Unknown'],
    ['state', '1', 'Down'],
    ['state', '2', 'Init'],
    ['state', '3', 'Armed'],
    ['state', '4', 'Active'],
    ['state', '5', 'ActiveDefer'],
    ['state', '17', 'Unknown'],
    ['state', 'NOP', 'Unknown'],
    ['state', 'weird (4)', 'Active'],
    ['state', '12: PORT_DOWN', 'Down'],
    ['physical', 'LinkUp', 'LinkUp'],
    ['physical', '5: LinkUp', 'LinkUp'],
    ['physical', 'LINK_UP (5)', 'LinkUp'],
    ['physical', 'Polling', 'Polling'],
    ['physical', '2: Polling', 'Polling'],
    ['physical', 'Disabled', 'Disabled'],
    ['physical', 'Sleep', 'Sleep'],
    ['physical', 'PortConfigurationTraining', 'PortConfigurationTraining'],
    ['physical', 'PORT_CONF_TRAINING', 'PortConfigurationTraining'],
    ['physical', 'LinkErrorRecovery', 'LinkErrorRecovery'],
    ['physical', 'LINK_ERR_RECOVER', 'LinkErrorRecovery'],
    ['physical', 'PhyTest', 'PhyTest'],
    ['physical', 'NoStateChange', 'NoStateChange'],
    ['physical', '0', 'NoStateChange'],
    ['physical', '1', 'Sleep'],
    ['physical', '2', 'Polling'],
    ['physical', '3', 'Disabled'],
    ['physical', '4', 'PortConfigurationTraining'],
    ['physical', '5', 'LinkUp'],
    ['physical', '6', 'LinkErrorRecovery'],
    ['physical', '7', 'PhyTest'],
    ['physical', '9', 'Unknown'],
    ['physical', 'mystery', 'Unknown'],
    ['link layer', 'InfiniBand', 'InfiniBand'],
    ['link layer', 'IB', 'InfiniBand'],
    ['link layer', 'ib', 'InfiniBand'],
    ['link layer', 'Ethernet', 'Ethernet'],
    ['link layer', 'ETH', 'Ethernet'],
    ['link layer', 'eth', 'Ethernet'],
    ['link layer', 'RoCE', null],
    ['link layer', '', null]
  ])('%s %s → %s', (kind, text, want) => {
    expect(NORMALIZE[kind](text)).toBe(want)
  })
})

describe('each format, its corners', () => {
  it('ibstat: device facts, the port, decimals in the rate; CRLF output reads the same', () => {
    const text = textLines(
      "CA 'mlx5_ib0'",
      '\tCA type: MT4124',
      '\tNumber of ports: 1',
      '\tFirmware version: 20.31.1014',
      '\tNode GUID: 0x0015',
      '\tPort 1:',
      '\t\tState: Active',
      '\t\tPhysical state: LinkUp',
      '\t\tRate: 2.5',
      '\t\tLink layer: InfiniBand',
      "CA 'mlx5_ib1'",
      '\tPort 1:',
      '\t\tState: Down',
      '\t\tPhysical state: Polling',
      '\t\tRate: 10',
      '\t\tLink layer: IB',
      ''
    )
    const want = {
      format: 'ibstat',
      error: null,
      devices: [
        ibDevice('mlx5_ib0', 'MT4124', '20.31.1014', '0x0015'),
        ibDevice('mlx5_ib1', null, null, null)
      ],
      ports: [
        ibPort('mlx5_ib0', 1, 'Active', 'LinkUp', 2.5, 'InfiniBand'),
        ibPort('mlx5_ib1', 1, 'Down', 'Polling', 10, 'InfiniBand')
      ]
    }
    expect(parseIbstat(text)).toEqual(want)
    expect(parseIbstat(text.replace(/\n/g, '\r\n'))).toEqual(want)
    expect(parseIbstat(text.replace(/\n/g, '\r'))).toEqual(want)
    expect(unhealthyInfinibandPorts(parseIbstat(text)).map(p => p.ca)).toEqual(['mlx5_ib1'])
  })

  it('ibstat: a port whose physical state is not LinkUp is unhealthy even when Active; Ethernet never', () => {
    const r = parseIbstat(
      "CA 'a'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: Polling\n\t\tLink layer: InfiniBand\nCA 'b'\n\tPort 1:\n\t\tState: Down\n\t\tLink layer: Ethernet\nCA 'c'\n\tPort 1:\n\t\tState: Active\n"
    )
    expect(unhealthyInfinibandPorts(r).map(p => p.ca)).toEqual(['a'])
    expect(infinibandPorts(r).map(p => p.ca)).toEqual(['a', 'c'])
  })

  it('ibstatus: state, physical state, rate and link layer per port', () => {
    const r = parseIbstat(
      textLines(
        "Infiniband device 'mlx5_ib0' port 1 status:",
        '\tdefault gid:\t fe80:0000:0000:0000:0015:5dff:fd33:ff05',
        '\tstate:\t\t 4: ACTIVE',
        '\tphys state:\t 5: LinkUp',
        '\trate:\t\t 400 Gb/sec (4X NDR)',
        '\tlink_layer:\t InfiniBand',
        '',
        "Infiniband device 'mlx5_ib0' port 2 status:",
        '\tstate:\t\t 1: DOWN',
        "Infiniband device 'mlx5_an0' port 1 status:",
        '\tstate:\t\t 4: ACTIVE',
        '\trate:\t\t 40 Gb/sec (4X QDR)',
        '\tlink_layer:\t Ethernet'
      )
    )
    expect(r.format).toBe('ibstatus')
    expect(r.devices.map(d => d.ca)).toEqual(['mlx5_ib0', 'mlx5_an0'])
    expect(r.ports).toEqual([
      ibPort('mlx5_ib0', 1, 'Active', 'LinkUp', 400, 'InfiniBand'),
      ibPort('mlx5_ib0', 2, 'Down', null, null, null),
      ibPort('mlx5_an0', 1, 'Active', null, 40, 'Ethernet')
    ])
  })

  it('ibv_devinfo -v: the rate from width × speed unless one is missing; device facts before the ports', () => {
    const r = parseIbstat(
      textLines(
        'hca_id:\tmlx5_ib0',
        '\ttransport:\t\t\tInfiniBand (0)',
        '\tfw_ver:\t\t\t\t28.39.1002',
        '\tnode_guid:\t\t\t0015:5dff:fe33:ff05',
        '\tvendor_part_id:\t\t\t4126',
        '\tphys_port_cnt:\t\t\t1',
        '\t\tport:\t1',
        '\t\t\tstate:\t\t\tPORT_ACTIVE (4)',
        '\t\t\tphys_state:\t\tLINK_UP (5)',
        '\t\t\tactive_width:\t\t4X (2)',
        '\t\t\tactive_speed:\t\t100.0 Gbps (128)',
        '\t\t\tlink_layer:\t\tInfiniBand',
        'hca_id:\tmlx5_an0',
        '\t\tport:\t1',
        '\t\t\tstate:\t\t\tPORT_DOWN (1)',
        '\t\t\tactive_width:\t\t4X (2)',
        '\t\t\tlink_layer:\t\tEthernet',
        ''
      )
    )
    expect(r.format).toBe('ibv_devinfo')
    expect(r.devices).toEqual([
      ibDevice('mlx5_ib0', 'MT4126', '28.39.1002', '0015:5dff:fe33:ff05'),
      ibDevice('mlx5_an0', null, null, null)
    ])
    expect(r.ports).toEqual([
      ibPort('mlx5_ib0', 1, 'Active', 'LinkUp', 400, 'InfiniBand'),
      ibPort('mlx5_an0', 1, 'Down', null, null, 'Ethernet')
    ])
  })

  it('rdma link show: IB when it prints lid or subnet_prefix, RoCE otherwise; numbered lines too', () => {
    const r = parseIbstat(
      textLines(
        'link mlx5_ib0/1 subnet_prefix fe80:0000:0000:0000 lid 111 sm_lid 549 lmc 0 state ACTIVE physical_state LINK_UP netdev ib0',
        '0/1: link mlx5_ib1/1 lid 112 state DOWN physical_state POLLING',
        'link mlx5_an0/1 state ACTIVE physical_state LINK_UP netdev eth1',
        'link mlx5_an0/2 state ACTIVE netdev',
        'link mlx5_9/1 state'
      )
    )
    expect(r.format).toBe('rdma-link')
    expect(r.ports).toEqual([
      ibPort('mlx5_ib0', 1, 'Active', 'LinkUp', null, 'InfiniBand'),
      ibPort('mlx5_ib1', 1, 'Down', 'Polling', null, 'InfiniBand'),
      ibPort('mlx5_an0', 1, 'Active', 'LinkUp', null, 'Ethernet'),
      ibPort('mlx5_an0', 2, 'Active', null, null, 'Ethernet'),
      ibPort('mlx5_9', 1, 'Unknown', null, null, 'Ethernet')
    ])
    expect(r.devices.map(d => [d.ca, d.netdev])).toEqual([
      ['mlx5_ib0', 'ib0'],
      ['mlx5_ib1', null],
      ['mlx5_an0', 'eth1'],
      ['mlx5_9', null]
    ])
  })

  it('ibv_devices: names and GUIDs, nothing from lines that are not rows', () => {
    const r = parseIbstat(
      '    device          \t   node GUID\n    ------          \t----------------\n    mlx5_ib0        \t00155dfffe33ff05\n    mlx5_an0  \t0015 not a guid\n'
    )
    expect(r.format).toBe('ibv_devices')
    expect(r.devices).toEqual([ibDevice('mlx5_ib0', null, null, '00155dfffe33ff05')])
    expect(r.error).toBeNull()
  })

  it('a header only in the middle of a line is no header', () => {
    for (const text of [
      "note: CA 'mlx5_0' went away",
      "the Infiniband device 'x' port 1 status: unknown",
      'got hca_id: mlx5_0 from somewhere',
      'a link mlx5_0/1 state ACTIVE',
      'a device   node GUID'
    ])
      expect(parseIbstat(text)).toMatchObject({ format: null, ports: [], devices: [] })
  })

  it.each([
    [
      "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n  ibpanic: [1] main: stat of IB device 'mlx5_8' failed  \n",
      "ibpanic: [1] main: stat of IB device 'mlx5_8' failed",
      'ibpanic'
    ],
    ['   No IB devices found   \n', 'No IB devices found', 'no-devices'],
    ['  hello there  \nmore\n', 'unrecognised output: hello there', 'unrecognised'],
    ['', 'no devices', 'no-devices'],
    ['    device          \t   node GUID\n', 'no devices', 'no-devices']
  ])(
    'errors: ibpanic wins over partial output, then tool errors, then unrecognised text; each trimmed: %j',
    (text, message, kind) => {
      expect(parseIbstat(text).error).toEqual({ message, kind })
    }
  )
})
