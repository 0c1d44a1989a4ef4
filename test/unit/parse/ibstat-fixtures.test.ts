// ibstat / ibstatus / ibv_devinfo / ibv_devices / rdma link parser against every fixture and the values
// expected.md lists, plus empty output, normalisation and devinfo -v rates.

import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  ibstatParseCommand,
  infinibandPorts,
  normalizePhysicalState,
  normalizeState,
  parseIbstat,
  unhealthyInfinibandPorts,
  type IbstatResult
} from '../../../src/parse/ibstat.js'
import { ibDevice, ibPort } from '../../support/ibstat-ports.js'

const dir = path.resolve(process.cwd(), 'test/fixtures/ibstat')
const fixtures = readdirSync(dir).filter(f => f.endsWith('.txt'))
const read = (prefix: string): IbstatResult =>
  parseIbstat(
    readFileSync(
      path.join(
        dir,
        fixtures.find(f => f.startsWith(prefix))!
      ),
      'utf8'
    )
  )

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => `mlx5_${a + i}`)

// expected.md, one entry per fixture
const EXPECTED: Record<string, (r: IbstatResult) => void> = {
  '01': r => {
    expect(r.format).toBe('ibstat')
    expect(r.error).toBeNull()
    expect(r.ports).toEqual([ibPort('mlx5_ib0', 1, 'Active', 'LinkUp', 200, 'InfiniBand')])
    expect(r.devices[0]).toMatchObject({ ca: 'mlx5_ib0', caType: 'MT4124', firmware: '20.31.1014' })
  },
  '02': r => {
    expect(r.format).toBe('ibv_devinfo')
    expect(r.error).toBeNull()
    expect(r.ports).toEqual([ibPort('mlx5_ib0', 1, 'Active', null, null, 'InfiniBand')])
    expect(r.devices[0]).toMatchObject({ ca: 'mlx5_ib0', firmware: '20.31.1014', caType: 'MT4124' })
  },
  '03': r => {
    expect(r.format).toBe('ibv_devices')
    expect(r.error).toBeNull()
    expect(r.ports).toEqual([])
    expect(r.devices).toEqual([ibDevice('mlx5_ib0', null, null, '00155dfffe33ff56')])
  },
  '04': r => {
    expect(r.error).toEqual({
      message: "ibpanic: [1400444] main: stat of IB device 'mlx5_8' failed: No such file or directory",
      kind: 'ibpanic'
    })
    expect(r.ports.map(p => p.ca)).toEqual(range(0, 7))
    for (const p of r.ports) {
      expect(p).toMatchObject({
        state: 'Active',
        physicalState: 'LinkUp',
        rateGbps: 200,
        linkLayer: 'InfiniBand'
      })
    }
    for (const d of r.devices) expect(d).toMatchObject({ caType: 'MT4124', firmware: '20.41.1000' })
  },
  '05': r => {
    expect(r.error).toBeNull()
    expect(r.ports).toHaveLength(12)
    const ib = infinibandPorts(r)
    expect(ib.map(p => p.ca).sort()).toEqual([
      'mlx5_0',
      'mlx5_10',
      'mlx5_11',
      'mlx5_3',
      'mlx5_4',
      'mlx5_5',
      'mlx5_6',
      'mlx5_9'
    ])
    for (const p of ib) expect(p).toMatchObject({ state: 'Active', physicalState: 'LinkUp', rateGbps: 400 })
    const eth = r.ports.filter(p => p.linkLayer === 'Ethernet')
    expect(eth.find(p => p.ca === 'mlx5_1')).toMatchObject({ state: 'Active', rateGbps: 100 })
    for (const ca of ['mlx5_2', 'mlx5_7', 'mlx5_8']) {
      expect(eth.find(p => p.ca === ca)).toMatchObject({
        state: 'Down',
        physicalState: 'Disabled',
        rateGbps: 40
      })
    }
    // Down Ethernet ports must not fail an IB check
    expect(unhealthyInfinibandPorts(r)).toEqual([])
    // CA order as printed (lexical: mlx5_10 before mlx5_2)
    expect(r.ports.map(p => p.ca).slice(0, 4)).toEqual(['mlx5_0', 'mlx5_1', 'mlx5_10', 'mlx5_11'])
  },
  '06': r => {
    expect(r.error).toBeNull()
    expect(r.ports).toHaveLength(12)
    expect(infinibandPorts(r)).toEqual([])
    expect(
      r.ports
        .filter(p => p.rateGbps === 400)
        .map(p => p.ca)
        .sort()
    ).toEqual(['mlx5_0', 'mlx5_10', 'mlx5_11', 'mlx5_3', 'mlx5_4', 'mlx5_5', 'mlx5_6', 'mlx5_9'])
    expect(
      r.ports
        .filter(p => p.rateGbps === 100)
        .map(p => p.ca)
        .sort()
    ).toEqual(['mlx5_1', 'mlx5_2', 'mlx5_7', 'mlx5_8'])
    for (const p of r.ports) expect(p).toMatchObject({ state: 'Active', physicalState: 'LinkUp' })
  },
  '07': r => {
    expect(r.ports).toHaveLength(9)
    expect(r.ports[0]).toMatchObject({ ca: 'mlx5_0', linkLayer: 'Ethernet', rateGbps: 200 })
    expect(infinibandPorts(r).map(p => p.ca)).toEqual(range(1, 8))
    for (const p of r.ports)
      expect(p).toMatchObject({ state: 'Active', physicalState: 'LinkUp', rateGbps: 200 })
    expect(r.devices[0].firmware).toBe('22.35.2302')
    expect(r.devices[1].firmware).toBe('28.37.1014')
  },
  '08': r => {
    expect(r.format).toBe('ibstatus')
    expect(r.error).toBeNull()
    expect(r.ports).toHaveLength(9)
    for (const p of r.ports.slice(0, 8)) {
      expect(p).toMatchObject({
        port: 1,
        state: 'Active',
        physicalState: 'LinkUp',
        rateGbps: 200,
        linkLayer: 'InfiniBand'
      })
    }
    expect(r.ports[8]).toEqual(ibPort('mlx5_8', 1, 'Active', 'LinkUp', 40, 'Ethernet'))
  },
  '10': r => {
    expect(r.format).toBe('rdma-link')
    expect(r.ports).toEqual([
      ibPort('mlx5_0', 1, 'Active', 'LinkUp', null, 'Ethernet'),
      ibPort('mlx5_1', 1, 'Active', 'LinkUp', null, 'Ethernet')
    ])
    expect(r.devices.map(d => d.netdev)).toEqual(['enp4s0f0np0', 'enp4s0f1np1'])
  }
}

describe('ibstat fixtures (expected.md)', () => {
  it('has an expectation for every fixture file', () => {
    for (const f of fixtures) expect(EXPECTED[f.slice(0, 2)]).toBeDefined()
  })
  it.each(fixtures)('%s', file => {
    EXPECTED[file.slice(0, 2)](read(file.slice(0, 2)))
  })
  it('CLI command prints the JSON result', () => {
    const json = JSON.parse(
      ibstatParseCommand(
        path.join(
          dir,
          fixtures.find(f => f.startsWith('04'))!
        )
      )
    )
    expect(json.ports).toHaveLength(8)
    expect(json.error.kind).toBe('ibpanic')
  })
})

describe('ibstat edge cases', () => {
  it('treats empty output as no devices, not a healthy node', () => {
    expect(parseIbstat('')).toMatchObject({ ports: [], error: { message: 'no devices' } })
    expect(parseIbstat('\n  \n').error?.message).toBe('no devices')
  })
  it('reports tool errors and unknown text', () => {
    expect(parseIbstat('Failed to get IB devices list: Function not implemented\n').error?.kind).toBe(
      'tool-error'
    )
    expect(parseIbstat('No IB devices found\n').error?.kind).toBe('no-devices')
    expect(parseIbstat('bash: ibstat: command not found\n').error?.kind).toBe('unrecognised')
  })
  it('normalises every spelling of state and physical state', () => {
    for (const s of ['Active', '4: ACTIVE', 'PORT_ACTIVE (4)', 'ACTIVE'])
      expect(normalizeState(s)).toBe('Active')
    for (const s of ['Down', '1: DOWN', 'PORT_DOWN (1)', 'DOWN']) expect(normalizeState(s)).toBe('Down')
    for (const s of ['Initializing', '2: INIT', 'PORT_INIT (2)', 'INIT'])
      expect(normalizeState(s)).toBe('Init')
    expect(normalizeState('PORT_ARMED (3)')).toBe('Armed')
    for (const s of ['LinkUp', '5: LinkUp', 'LINK_UP (5)', 'LINK_UP'])
      expect(normalizePhysicalState(s)).toBe('LinkUp')
    for (const s of ['Polling', '2: Polling', 'POLLING (2)'])
      expect(normalizePhysicalState(s)).toBe('Polling')
    expect(normalizePhysicalState('3: Disabled')).toBe('Disabled')
  })
  it('computes the rate from ibv_devinfo -v width × speed and flags a down IB port', () => {
    const text = [
      'hca_id:\tmlx5_0',
      '\ttransport:\t\t\tInfiniBand (0)',
      '\tfw_ver:\t\t\t\t20.41.1000',
      '\tvendor_part_id:\t\t\t4124',
      '\t\tport:\t1',
      '\t\t\tstate:\t\t\tPORT_DOWN (1)',
      '\t\t\tactive_width:\t\t4X (2)',
      '\t\t\tactive_speed:\t\t50.0 Gbps (64)',
      '\t\t\tphys_state:\t\tPOLLING (2)',
      '\t\t\tlink_layer:\t\tInfiniBand'
    ].join('\n')
    const r = parseIbstat(text)
    expect(r.ports).toEqual([ibPort('mlx5_0', 1, 'Down', 'Polling', 200, 'InfiniBand')])
    expect(unhealthyInfinibandPorts(r)).toHaveLength(1)
  })
  it('reads an InfiniBand port from rdma link show', () => {
    const r = parseIbstat(
      'link mlx5_ib0/1 subnet_prefix fe80:0000:0000:0000 lid 958 sm_lid 549 lmc 0 state ACTIVE physical_state LINK_UP\n'
    )
    expect(r.ports[0]).toMatchObject({ ca: 'mlx5_ib0', port: 1, state: 'Active', linkLayer: 'InfiniBand' })
  })
})
