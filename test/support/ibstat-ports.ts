// The records src/parse/ibstat.ts reads out of ibstat-family output, one call per port or device,
// for the parser tests in test/unit/parse.
import type { IbDevice, IbPort, LinkLayer, PhysicalState, PortState } from '../../src/parse/ibstat.js'

/** One parsed port: CA, port number, state, physical state, rate in Gb/s, link layer. */
export const ibPort = (
  ca: string,
  port: number,
  state: PortState,
  physicalState: PhysicalState | null,
  rateGbps: number | null,
  linkLayer: LinkLayer | null
): IbPort => ({ ca, port, state, physicalState, rateGbps, linkLayer })

/** One parsed device: CA, CA type, firmware, node GUID, netdev. */
export const ibDevice = (
  ca: string,
  caType: string | null,
  firmware: string | null,
  nodeGuid: string | null,
  netdev: string | null = null
): IbDevice => ({ ca, caType, firmware, nodeGuid, netdev })
