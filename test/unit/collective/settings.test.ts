// The collective check's inputs: off by default; nccl needs two nodes and NVIDIA GPUs, the default
// image has no A100 kernels, collective-min-busbw is a positive number of GB/s; every problem names
// its input and the fix, before any network call.
import { describe, expect, it } from '@jest/globals'
import { InputError, readSettings } from '../../../src/settings/input-helper.js'
import { NCCL_TESTS_IMAGE } from '../../../src/settings/images.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

/** readSettings over a valid apply's inputs with `over`: it throws an InputError listing each problem as `  - …`. */
const reading = (over: Record<string, string>) => () => readSettings(reader({ ...VALID_APPLY, ...over }), {})

describe('collective-check inputs', () => {
  it('is off by default, on the pinned default image, with the size’s pass mark', () => {
    const s = readSettings(reader(VALID_APPLY), {}).settings
    expect(s.collective).toEqual({ check: 'none', image: NCCL_TESTS_IMAGE })
  })

  it('reads nccl, an image and a pass mark override', () => {
    const s = readSettings(
      reader({
        ...VALID_APPLY,
        'collective-check': 'nccl',
        'collective-image': 'example.com/nccl-tests:2.17.6',
        'collective-min-busbw': '150.5'
      }),
      {}
    ).settings
    expect(s.collective).toEqual({
      check: 'nccl',
      image: 'example.com/nccl-tests:2.17.6',
      minBusbwGBps: 150.5
    })
  })

  it('refuses one node, an AMD size, an A100 size on the default image, and a pass mark that is not a positive number', () => {
    expect(reading({ 'collective-check': 'nccl', 'node-count': '1' })).toThrow(
      /^ {2}- collective-check "nccl": needs node-count of at least 2/m
    )
    expect(reading({ 'collective-check': 'nccl', 'vm-size': 'Standard_ND96isr_MI300X_v5' })).toThrow(
      /^ {2}- collective-check "nccl": .* AMD GPUs, which NCCL does not drive/m
    )
    expect(reading({ 'collective-check': 'nccl', 'vm-size': 'Standard_ND96asr_v4' })).toThrow(
      /^ {2}- collective-image ".*": the default image is built for Hopper and Blackwell GPUs only/m
    )
    expect(
      reading({
        'collective-check': 'nccl',
        'vm-size': 'Standard_ND96asr_v4',
        'collective-image': 'example.com/nccl-tests:a100'
      })
    ).not.toThrow()
    expect(reading({ 'collective-min-busbw': '0' })).toThrow(
      /^ {2}- collective-min-busbw .*must be a number of GB\/s greater than 0/m
    )
    expect(reading({ 'collective-check': 'ring' })).toThrow(InputError)
    expect(reading({ 'collective-check': 'ring' })).toThrow(/^ {2}- collective-check/m)
  })
})
