import { formatDuration, parseDuration } from '../../../src/util/duration.js'

describe('durations', () => {
  it.each([
    ['90s', 90_000],
    ['25m', 1_500_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['10', 10_000]
  ])('parses the input form %s as %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })
  it('rejects what is not a duration', () => {
    for (const bad of ['', 'abc', '5 minutes', '-3s', '1d', 'm5']) expect(parseDuration(bad)).toBeUndefined()
  })
  it.each([
    [250_000, '4m10s'],
    [3_723_000, '1h2m3s'],
    [0, '0ms'],
    [12_000, '12s']
  ])('formats %i ms for logs as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })
})
