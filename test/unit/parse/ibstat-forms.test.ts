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

describe('port states in every spelling', () => {
  it.each([
    ['Active', 'Active'],
    ['4: ACTIVE', 'Active'],
    ['PORT_ACTIVE (4)', 'Active'],
    ['Down', 'Down'],
    ['1: DOWN', 'Down'],
    ['PORT_DOWN (1)', 'Down'],
    ['Init', 'Init'],
    ['Initialize', 'Init'],
    ['INITIALIZING', 'Init'],
    ['2: INIT', 'Init'],
    ['PORT_INIT (2)', 'Init'],
    ['Armed', 'Armed'],
    ['3: ARMED', 'Armed'],
    ['PORT_ARMED (3)', 'Armed'],
    ['Active_defer', 'ActiveDefer'],
    ['PORT_ACTIVE_DEFER (5)', 'ActiveDefer'],
    ['0', 'Unknown'],
    ['1', 'Down'],
    ['2', 'Init'],
    ['3', 'Armed'],
    ['4', 'Active'],
    ['5', 'ActiveDefer'],
    ['17', 'Unknown'],
    ['NOP', 'Unknown'],
    ['weird (4)', 'Active'],
    ['12: PORT_DOWN', 'Down']
  ])('%s → %s', (text, state) => {
    expect(normalizeState(text)).toBe(state)
  })

  it.each([
    ['LinkUp', 'LinkUp'],
    ['5: LinkUp', 'LinkUp'],
    ['LINK_UP (5)', 'LinkUp'],
    ['Polling', 'Polling'],
    ['2: Polling', 'Polling'],
    ['Disabled', 'Disabled'],
    ['Sleep', 'Sleep'],
    ['PortConfigurationTraining', 'PortConfigurationTraining'],
    ['PORT_CONF_TRAINING', 'PortConfigurationTraining'],
    ['LinkErrorRecovery', 'LinkErrorRecovery'],
    ['LINK_ERR_RECOVER', 'LinkErrorRecovery'],
    ['PhyTest', 'PhyTest'],
    ['NoStateChange', 'NoStateChange'],
    ['0', 'NoStateChange'],
    ['1', 'Sleep'],
    ['2', 'Polling'],
    ['3', 'Disabled'],
    ['4', 'PortConfigurationTraining'],
    ['5', 'LinkUp'],
    ['6', 'LinkErrorRecovery'],
    ['7', 'PhyTest'],
    ['9', 'Unknown'],
    ['mystery', 'Unknown']
  ])('physical %s → %s', (text, state) => {
    expect(normalizePhysicalState(text)).toBe(state)
  })

  it.each([
    ['InfiniBand', 'InfiniBand'],
    ['IB', 'InfiniBand'],
    ['ib', 'InfiniBand'],
    ['Ethernet', 'Ethernet'],
    ['ETH', 'Ethernet'],
    ['eth', 'Ethernet'],
    ['RoCE', null],
    ['', null]
  ])('link layer %s → %s', (text, layer) => {
    expect(normalizeLinkLayer(text)).toBe(layer)
  })
})

describe('each format, its corners', () => {
  it('ibstat: device facts, the port, decimals in the rate; CRLF output reads the same', () => {
    const text = [
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
    ].join('\n')
    const want = {
      format: 'ibstat',
      error: null,
      devices: [
        { ca: 'mlx5_ib0', caType: 'MT4124', firmware: '20.31.1014', nodeGuid: '0x0015', netdev: null },
        { ca: 'mlx5_ib1', caType: null, firmware: null, nodeGuid: null, netdev: null }
      ],
      ports: [
        {
          ca: 'mlx5_ib0',
          port: 1,
          state: 'Active',
          physicalState: 'LinkUp',
          rateGbps: 2.5,
          linkLayer: 'InfiniBand'
        },
        {
          ca: 'mlx5_ib1',
          port: 1,
          state: 'Down',
          physicalState: 'Polling',
          rateGbps: 10,
          linkLayer: 'InfiniBand'
        }
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
      [
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
      ].join('\n')
    )
    expect(r.format).toBe('ibstatus')
    expect(r.devices.map(d => d.ca)).toEqual(['mlx5_ib0', 'mlx5_an0'])
    expect(r.ports).toEqual([
      {
        ca: 'mlx5_ib0',
        port: 1,
        state: 'Active',
        physicalState: 'LinkUp',
        rateGbps: 400,
        linkLayer: 'InfiniBand'
      },
      { ca: 'mlx5_ib0', port: 2, state: 'Down', physicalState: null, rateGbps: null, linkLayer: null },
      { ca: 'mlx5_an0', port: 1, state: 'Active', physicalState: null, rateGbps: 40, linkLayer: 'Ethernet' }
    ])
  })

  it('ibv_devinfo -v: the rate from width × speed unless one is missing; device facts before the ports', () => {
    const r = parseIbstat(
      [
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
      ].join('\n')
    )
    expect(r.format).toBe('ibv_devinfo')
    expect(r.devices).toEqual([
      {
        ca: 'mlx5_ib0',
        caType: 'MT4126',
        firmware: '28.39.1002',
        nodeGuid: '0015:5dff:fe33:ff05',
        netdev: null
      },
      { ca: 'mlx5_an0', caType: null, firmware: null, nodeGuid: null, netdev: null }
    ])
    expect(r.ports).toEqual([
      {
        ca: 'mlx5_ib0',
        port: 1,
        state: 'Active',
        physicalState: 'LinkUp',
        rateGbps: 400,
        linkLayer: 'InfiniBand'
      },
      { ca: 'mlx5_an0', port: 1, state: 'Down', physicalState: null, rateGbps: null, linkLayer: 'Ethernet' }
    ])
  })

  it('rdma link show: IB when it prints lid or subnet_prefix, RoCE otherwise; numbered lines too', () => {
    const r = parseIbstat(
      [
        'link mlx5_ib0/1 subnet_prefix fe80:0000:0000:0000 lid 111 sm_lid 549 lmc 0 state ACTIVE physical_state LINK_UP netdev ib0',
        '0/1: link mlx5_ib1/1 lid 112 state DOWN physical_state POLLING',
        'link mlx5_an0/1 state ACTIVE physical_state LINK_UP netdev eth1',
        'link mlx5_an0/2 state ACTIVE netdev',
        'link mlx5_9/1 state'
      ].join('\n')
    )
    expect(r.format).toBe('rdma-link')
    expect(r.ports).toEqual([
      {
        ca: 'mlx5_ib0',
        port: 1,
        state: 'Active',
        physicalState: 'LinkUp',
        rateGbps: null,
        linkLayer: 'InfiniBand'
      },
      {
        ca: 'mlx5_ib1',
        port: 1,
        state: 'Down',
        physicalState: 'Polling',
        rateGbps: null,
        linkLayer: 'InfiniBand'
      },
      {
        ca: 'mlx5_an0',
        port: 1,
        state: 'Active',
        physicalState: 'LinkUp',
        rateGbps: null,
        linkLayer: 'Ethernet'
      },
      {
        ca: 'mlx5_an0',
        port: 2,
        state: 'Active',
        physicalState: null,
        rateGbps: null,
        linkLayer: 'Ethernet'
      },
      { ca: 'mlx5_9', port: 1, state: 'Unknown', physicalState: null, rateGbps: null, linkLayer: 'Ethernet' }
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
    expect(r.devices).toEqual([
      { ca: 'mlx5_ib0', caType: null, firmware: null, nodeGuid: '00155dfffe33ff05', netdev: null }
    ])
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

  it('errors: ibpanic wins over partial output, then tool errors, then unrecognised text; each trimmed', () => {
    expect(
      parseIbstat(
        "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n  ibpanic: [1] main: stat of IB device 'mlx5_8' failed  \n"
      ).error
    ).toEqual({
      message: "ibpanic: [1] main: stat of IB device 'mlx5_8' failed",
      kind: 'ibpanic'
    })
    expect(parseIbstat('   No IB devices found   \n').error).toEqual({
      message: 'No IB devices found',
      kind: 'no-devices'
    })
    expect(parseIbstat('  hello there  \nmore\n').error).toEqual({
      message: 'unrecognised output: hello there',
      kind: 'unrecognised'
    })
    expect(parseIbstat('').error).toEqual({ message: 'no devices', kind: 'no-devices' })
    expect(parseIbstat('    device          \t   node GUID\n').error).toEqual({
      message: 'no devices',
      kind: 'no-devices'
    })
  })
})
