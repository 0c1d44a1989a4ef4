// Test helper: an input reader over a plain object, as the runner's INPUT_* would give.
import type { InputReader } from '../../src/settings/input-helper.js'

export const AZURE_IDS = {
  'client-id': '22222222-2222-2222-2222-222222222222',
  'tenant-id': '11111111-1111-1111-1111-111111111111',
  'subscription-id': '00000000-0000-0000-0000-000000000000'
}

export function reader(values: Record<string, string>): InputReader {
  return name => values[name]
}

/**
 * Valid apply inputs. GPUDirect through nvidia_peermem (the input's legacy value): most tests pin
 * what the peermem path checks; the dmabuf default has tests of its own.
 */
export const VALID_APPLY = {
  ...AZURE_IDS,
  'resource-group': 'rg',
  'cluster-name': 'aks1',
  gpudirect: 'peermem'
}
