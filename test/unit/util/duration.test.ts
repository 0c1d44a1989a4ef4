import { formatDuration, parseDuration } from '../../../src/util/duration.js'

describe('durations', () => {
  it('parses the input forms', () => {
    expect(parseDuration('90s')).toBe(90_000)
    expect(parseDuration('25m')).toBe(1_500_000)
    expect(parseDuration('1h')).toBe(3_600_000)
    expect(parseDuration('1h30m')).toBe(5_400_000)
    expect(parseDuration('500ms')).toBe(500)
    expect(parseDuration('10')).toBe(10_000)
  })
  it('rejects what is not a duration', () => {
    for (const bad of ['', 'abc', '5 minutes', '-3s', '1d', 'm5']) expect(parseDuration(bad)).toBeUndefined()
  })
  it('formats for logs', () => {
    expect(formatDuration(250_000)).toBe('4m10s')
    expect(formatDuration(3_723_000)).toBe('1h2m3s')
    expect(formatDuration(0)).toBe('0ms')
    expect(formatDuration(12_000)).toBe('12s')
  })
})
