// Reads RDMA port state from ibstat, ibstatus, ibv_devinfo, ibv_devices and `rdma link show` into one shape,
// states normalised so callers never compare tool spellings. Empty output is a "no devices" error, never a
// healthy node; an `ibpanic:` line is an error that keeps the ports before it. Sources: sim/README.md.

import { readFileSync } from 'node:fs'

export type PortState = 'Active' | 'Down' | 'Init' | 'Armed' | 'ActiveDefer' | 'Unknown'
export type PhysicalState =
  | 'LinkUp'
  | 'Polling'
  | 'Disabled'
  | 'Sleep'
  | 'PortConfigurationTraining'
  | 'LinkErrorRecovery'
  | 'PhyTest'
  | 'NoStateChange'
  | 'Unknown'
export type LinkLayer = 'InfiniBand' | 'Ethernet'
export type IbstatFormat = 'ibstat' | 'ibstatus' | 'ibv_devinfo' | 'ibv_devices' | 'rdma-link'

/** physicalState, rateGbps and linkLayer are null when the tool did not print them. */
export interface IbPort {
  ca: string
  port: number
  state: PortState
  physicalState: PhysicalState | null
  rateGbps: number | null
  linkLayer: LinkLayer | null
}

export interface IbDevice {
  ca: string
  caType: string | null
  firmware: string | null
  nodeGuid: string | null
  /** rdma link show: the netdev bound to the port(s) of this device. */
  netdev: string | null
}

export interface IbstatError {
  message: string
  kind: 'no-devices' | 'ibpanic' | 'tool-error' | 'unrecognised'
}

export interface IbstatResult {
  ports: IbPort[]
  error: IbstatError | null
  format: IbstatFormat | null
  /** Per-device facts (CA type, firmware, GUID) where the tool printed them; ibv_devices lists only these. */
  devices: IbDevice[]
}

const STATE_BY_CODE: Record<number, PortState> = {
  0: 'Unknown',
  1: 'Down',
  2: 'Init',
  3: 'Armed',
  4: 'Active',
  5: 'ActiveDefer'
}
const PHYS_BY_CODE: Record<number, PhysicalState> = {
  0: 'NoStateChange',
  1: 'Sleep',
  2: 'Polling',
  3: 'Disabled',
  4: 'PortConfigurationTraining',
  5: 'LinkUp',
  6: 'LinkErrorRecovery',
  7: 'PhyTest'
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z]/g, '')
}

/** `Active`, `4: ACTIVE`, `PORT_ACTIVE (4)`, `ACTIVE` → 'Active'. */
export function normalizeState(text: string): PortState {
  const word = squash(text.replace(/^\s*\d+\s*:/, '').replace(/\(\d+\)/, '')).replace(/^port/, '')
  switch (word) {
    case 'active':
      return 'Active'
    case 'down':
      return 'Down'
    case 'init':
    case 'initialize':
    case 'initializing':
      return 'Init'
    case 'armed':
      return 'Armed'
    case 'activedefer':
      return 'ActiveDefer'
  }
  const code = /(\d+)/.exec(text)
  return code ? (STATE_BY_CODE[Number(code[1])] ?? 'Unknown') : 'Unknown'
}

/** `LinkUp`, `5: LinkUp`, `LINK_UP (5)`, `LINK_UP` → 'LinkUp'. */
export function normalizePhysicalState(text: string): PhysicalState {
  const word = squash(text.replace(/^\s*\d+\s*:/, '').replace(/\(\d+\)/, ''))
  const byWord: Record<string, PhysicalState> = {
    linkup: 'LinkUp',
    polling: 'Polling',
    disabled: 'Disabled',
    sleep: 'Sleep',
    portconfigurationtraining: 'PortConfigurationTraining',
    portconftraining: 'PortConfigurationTraining',
    linkerrorrecovery: 'LinkErrorRecovery',
    linkerrorrecover: 'LinkErrorRecovery',
    linkerrrecover: 'LinkErrorRecovery',
    phytest: 'PhyTest',
    nostatechange: 'NoStateChange',
    nop: 'NoStateChange',
    // iproute2's `rdma link` names physical state 4 (PortConfigurationTraining) `ARMED`.
    armed: 'PortConfigurationTraining'
  }
  if (byWord[word]) return byWord[word]
  const code = /(\d+)/.exec(text)
  return code ? (PHYS_BY_CODE[Number(code[1])] ?? 'Unknown') : 'Unknown'
}

export function normalizeLinkLayer(text: string): LinkLayer | null {
  const w = squash(text)
  if (w === 'infiniband' || w === 'ib') return 'InfiniBand'
  if (w === 'ethernet' || w === 'eth') return 'Ethernet'
  return null
}

/** The first number in a rate text (`200`, `400 Gb/sec (4X NDR)`), or null. */
export function parseRate(text: string): number | null {
  const m = /(\d+(?:\.\d+)?)/.exec(text)
  return m ? Number(m[1]) : null
}

function emptyDevice(ca: string): IbDevice {
  return { ca, caType: null, firmware: null, nodeGuid: null, netdev: null }
}

function keyValue(line: string): [string, string] | null {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_ ]*?)\s*:\s*(.*?)\s*$/.exec(line)
  return m ? [m[1].toLowerCase(), m[2]] : null
}

function detectFormat(lines: string[]): IbstatFormat | null {
  for (const line of lines) {
    if (/^\s*CA '[^']+'/.test(line)) return 'ibstat'
    if (/^\s*Infiniband device '[^']+' port \d+ status:/.test(line)) return 'ibstatus'
    if (/^\s*hca_id:\s*\S+/.test(line)) return 'ibv_devinfo'
    if (/^\s*link \S+\/\d+/.test(line)) return 'rdma-link'
    if (/^\s*device\s+node GUID\s*$/.test(line)) return 'ibv_devices'
  }
  return null
}

function parseIbstatBlocks(lines: string[], out: IbstatResult): void {
  let device: IbDevice | null = null
  let port: IbPort | null = null
  for (const line of lines) {
    const ca = /^\s*CA '([^']+)'/.exec(line)
    if (ca) {
      device = emptyDevice(ca[1])
      out.devices.push(device)
      port = null
      continue
    }
    const portHead = /^\s*Port (\d+):\s*$/.exec(line)
    if (portHead && device) {
      port = {
        ca: device.ca,
        port: Number(portHead[1]),
        state: 'Unknown',
        physicalState: null,
        rateGbps: null,
        linkLayer: null
      }
      out.ports.push(port)
      continue
    }
    const kv = keyValue(line)
    if (!kv || !device) continue
    const [key, value] = kv
    if (port) {
      if (key === 'state') port.state = normalizeState(value)
      else if (key === 'physical state') port.physicalState = normalizePhysicalState(value)
      else if (key === 'rate') port.rateGbps = parseRate(value)
      else if (key === 'link layer') port.linkLayer = normalizeLinkLayer(value)
      continue
    }
    if (key === 'ca type') device.caType = value
    else if (key === 'firmware version') device.firmware = value
    else if (key === 'node guid') device.nodeGuid = value
  }
}

function parseIbstatus(lines: string[], out: IbstatResult): void {
  let port: IbPort | null = null
  for (const line of lines) {
    const head = /^\s*Infiniband device '([^']+)' port (\d+) status:/.exec(line)
    if (head) {
      port = {
        ca: head[1],
        port: Number(head[2]),
        state: 'Unknown',
        physicalState: null,
        rateGbps: null,
        linkLayer: null
      }
      out.ports.push(port)
      if (!out.devices.some(d => d.ca === head[1])) out.devices.push(emptyDevice(head[1]))
      continue
    }
    const kv = keyValue(line)
    if (!kv || !port) continue
    const [key, value] = kv
    if (key === 'state') port.state = normalizeState(value)
    else if (key === 'phys state') port.physicalState = normalizePhysicalState(value)
    else if (key === 'rate') port.rateGbps = parseRate(value)
    else if (key === 'link_layer') port.linkLayer = normalizeLinkLayer(value)
  }
}

function parseDevinfo(lines: string[], out: IbstatResult): void {
  let device: IbDevice | null = null
  let port: IbPort | null = null
  let width: number | null = null
  let speed: number | null = null
  const finishRate = () => {
    if (port && port.rateGbps === null && width !== null && speed !== null) port.rateGbps = width * speed
    width = null
    speed = null
  }
  for (const line of lines) {
    const hca = /^\s*hca_id:\s*(\S+)/.exec(line)
    if (hca) {
      finishRate()
      device = emptyDevice(hca[1])
      out.devices.push(device)
      port = null
      continue
    }
    const portHead = /^\s*port:\s*(\d+)\s*$/.exec(line)
    if (portHead && device) {
      finishRate()
      port = {
        ca: device.ca,
        port: Number(portHead[1]),
        state: 'Unknown',
        physicalState: null,
        rateGbps: null,
        linkLayer: null
      }
      out.ports.push(port)
      continue
    }
    const kv = keyValue(line)
    if (!kv || !device) continue
    const [key, value] = kv
    if (port) {
      if (key === 'state') port.state = normalizeState(value)
      else if (key === 'phys_state') port.physicalState = normalizePhysicalState(value)
      else if (key === 'link_layer') port.linkLayer = normalizeLinkLayer(value)
      else if (key === 'active_width') width = parseRate(value)
      else if (key === 'active_speed') speed = parseRate(value)
      continue
    }
    if (key === 'vendor_part_id') device.caType = `MT${value}`
    else if (key === 'fw_ver') device.firmware = value
    else if (key === 'node_guid') device.nodeGuid = value
  }
  finishRate()
}

function parseRdmaLink(lines: string[], out: IbstatResult): void {
  for (const line of lines) {
    const m = /^\s*(?:\d+\/\d+:\s*)?link (\S+)\/(\d+)\s+(.*)$/.exec(line)
    if (!m) continue
    const fields = m[3].trim().split(/\s+/)
    const get = (name: string) => {
      const i = fields.indexOf(name)
      return i >= 0 && i + 1 < fields.length ? fields[i + 1] : null
    }
    const state = get('state')
    const phys = get('physical_state')
    // iproute2 prints subnet_prefix/lid/sm_lid/lmc only for InfiniBand ports, so their absence is RoCE.
    const isIb = fields.includes('lid') || fields.includes('subnet_prefix')
    out.ports.push({
      ca: m[1],
      port: Number(m[2]),
      state: state ? normalizeState(state) : 'Unknown',
      physicalState: phys ? normalizePhysicalState(phys) : null,
      rateGbps: null,
      linkLayer: isIb ? 'InfiniBand' : 'Ethernet'
    })
    let device = out.devices.find(d => d.ca === m[1])
    if (!device) {
      device = emptyDevice(m[1])
      out.devices.push(device)
    }
    device.netdev ??= get('netdev')
  }
}

function parseIbvDevices(lines: string[], out: IbstatResult): void {
  for (const line of lines) {
    const m = /^\s*(\S+)\s+([0-9a-fA-F]{16})\s*$/.exec(line)
    if (m) out.devices.push({ ...emptyDevice(m[1]), nodeGuid: m[2] })
  }
}

const TOOL_ERROR_RE =
  /^\s*(?:ibwarn:|ibstat: |Failed to get IB devices list|Failed to open|ibv_devinfo: |Error:|error:|Fatal error:)/

/** The tools' reports that there is no (such) RDMA device; the format they come from. */
const NO_DEVICE_REPORTS: Array<{ pattern: RegExp; format: IbstatFormat }> = [
  // ibstatus: no /sys/class/infiniband, an empty one (its `*` matches nothing), or a named device missing.
  {
    pattern: /^\s*Fatal error:\s+(?:No devices|device '[^']*': sys files not found\b.*)$/,
    format: 'ibstatus'
  },
  // ibstat <dev>: IBPANIC("'%s' IB device can't be found").
  { pattern: /^\s*ibpanic:.*'[^']*' IB device can't be found/, format: 'ibstat' },
  // ibv_devinfo with no device, or -d <dev> missing.
  { pattern: /^\s*(?:No IB devices found|IB device '[^']*' wasn't found)\s*$/, format: 'ibv_devinfo' }
]

/** Parses ibstat / ibstatus / ibv_devinfo / ibv_devices / `rdma link show` output. */
export function parseIbstat(text: string): IbstatResult {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const out: IbstatResult = { ports: [], error: null, format: null, devices: [] }
  if (text.trim() === '') {
    out.error = { message: 'no devices', kind: 'no-devices' }
    return out
  }
  for (const line of lines) {
    const report = NO_DEVICE_REPORTS.find(r => r.pattern.test(line))
    if (report) {
      out.format = report.format
      out.error = { message: line.trim(), kind: 'no-devices' }
      return out
    }
  }
  out.format = detectFormat(lines)
  switch (out.format) {
    case 'ibstat':
      parseIbstatBlocks(lines, out)
      break
    case 'ibstatus':
      parseIbstatus(lines, out)
      break
    case 'ibv_devinfo':
      parseDevinfo(lines, out)
      break
    case 'rdma-link':
      parseRdmaLink(lines, out)
      break
    case 'ibv_devices':
      parseIbvDevices(lines, out)
      break
    case null:
      // No format recognised: reported as an error below.
      break
  }
  const panic = lines.find(l => /^\s*ibpanic:/.test(l))
  const toolError = lines.find(l => TOOL_ERROR_RE.test(l))
  if (panic) out.error = { message: panic.trim(), kind: 'ibpanic' }
  else if (toolError) out.error = { message: toolError.trim(), kind: 'tool-error' }
  else if (out.format === null)
    out.error = { message: `unrecognised output: ${lines.find(l => l.trim())!.trim()}`, kind: 'unrecognised' }
  else if (out.devices.length === 0 && out.ports.length === 0)
    out.error = { message: 'no devices', kind: 'no-devices' }
  return out
}

/** The InfiniBand ports (Ethernet VFs and RoCE ports excluded); a port of unknown link layer is kept. */
export function infinibandPorts(result: IbstatResult): IbPort[] {
  return result.ports.filter(p => p.linkLayer !== 'Ethernet')
}

/** InfiniBand ports that are not Active/LinkUp; a Down Ethernet port never counts. */
export function unhealthyInfinibandPorts(result: IbstatResult): IbPort[] {
  return infinibandPorts(result).filter(
    p => p.state !== 'Active' || (p.physicalState !== null && p.physicalState !== 'LinkUp')
  )
}

/** CLI: `ibstat parse FILE` → the IbstatResult as pretty JSON. */
export function ibstatParseCommand(file: string): string {
  const text = readFileSync(file, 'utf8')
  return JSON.stringify(parseIbstat(text), null, 2) + '\n'
}

/** What `ibstat parse` prints and exits with (see ParseCommandResult in perftest.ts). */
export interface IbstatCliResult {
  json?: string
  /** 0 parsed, 1 the tool reported an error or no device (empty output included), 2 not ibstat-family output. */
  exitCode: 0 | 1 | 2
  message?: string
}

/** CLI: the text of `ibstat parse FILE|-` → its JSON and exit code. */
export function ibstatCliResult(text: string): IbstatCliResult {
  const r = parseIbstat(text)
  if (r.error?.kind === 'unrecognised')
    return {
      exitCode: 2,
      message: `not ibstat, ibstatus, ibv_devinfo, ibv_devices or rdma link output (${r.error.message})`
    }
  const json = JSON.stringify(r, null, 2) + '\n'
  if (r.error) return { json, exitCode: 1, message: `${r.error.kind}: ${r.error.message}` }
  return { json, exitCode: 0 }
}
