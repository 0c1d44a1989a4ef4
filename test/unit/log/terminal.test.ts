// The terminal backend of the Log seam on a fake stream: headings, debug only when verbose, plain
// warning/error lines with colour only on a TTY, every secret redacted (and its encoded forms), one
// live line per progress key redrawn in place on a TTY, throttled progress lines without a TTY.
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import { Redactor, TerminalLog } from '../../../src/log/terminal.js'

const ESC = String.fromCharCode(27)
const CSI = new RegExp(`^${ESC}\\[(\\d*)([A-Za-z])`)
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, 'g')

class FakeStream {
  writes: string[] = []
  constructor(
    readonly isTTY: boolean,
    readonly columns = 80
  ) {}
  write(text: string): boolean {
    this.writes.push(text)
    return true
  }
  get text(): string {
    return this.writes.join('')
  }
  /** What a terminal would show: the escape sequences applied (cursor up n lines + clear to the end). */
  get screen(): string[] {
    const lines: string[] = []
    let cur = ''
    const text = this.text
    for (let i = 0; i < text.length; i++) {
      const esc = CSI.exec(text.slice(i))
      if (esc) {
        if (esc[2] === 'F') {
          lines.splice(lines.length - Number(esc[1] || 1))
          cur = ''
        } else if (esc[2] === 'J') cur = ''
        i += esc[0].length - 1
        continue
      }
      if (text[i] === '\n') {
        lines.push(cur)
        cur = ''
      } else cur += text[i]
    }
    if (cur) lines.push(cur)
    return lines.map(l => l.replace(SGR, ''))
  }
}

afterEach(() => {
  jest.useRealTimers()
})

describe('terminal log', () => {
  it('shows groups as headings, info indented inside them, and no workflow command', () => {
    const s = new FakeStream(false)
    const log = new TerminalLog({ stream: s })
    log.startGroup('node-pool: node pool rdmapool')
    log.info('creating 2 nodes')
    log.endGroup()
    log.info('done')
    expect(s.text).toBe('==> node-pool: node pool rdmapool\n  creating 2 nodes\ndone\n')
    expect(s.text).not.toMatch(/^::/m)
  })

  it('prints debug lines only when verbose', () => {
    const quiet = new FakeStream(false)
    new TerminalLog({ stream: quiet }).debug('helm status x')
    expect(quiet.text).toBe('')
    const loud = new FakeStream(false)
    new TerminalLog({ stream: loud, verbose: true }).debug('helm status x')
    expect(loud.text).toBe('debug: helm status x\n')
  })

  it('prints warnings and errors as plain lines, with their title, multi-line messages indented', () => {
    const s = new FakeStream(false)
    const log = new TerminalLog({ stream: s })
    log.warning('pool count differs')
    log.error('timed out\nlast state: 1/2 nodes', { title: 'aks-rdma-action: verify failed' })
    expect(s.text).toBe(
      'warning: pool count differs\nerror: aks-rdma-action: verify failed: timed out\n  last state: 1/2 nodes\n'
    )
  })

  it('colours only on a TTY, and never with NO_COLOR', () => {
    const plain = new FakeStream(false)
    new TerminalLog({ stream: plain }).error('x')
    expect(plain.text).not.toContain('\x1b[')
    const tty = new FakeStream(true)
    new TerminalLog({ stream: tty }).error('x')
    expect(tty.text).toContain('\x1b[31m')
    const saved = process.env.NO_COLOR
    process.env.NO_COLOR = '1'
    try {
      const noColor = new FakeStream(true)
      new TerminalLog({ stream: noColor }).error('x')
      expect(noColor.text).not.toContain('\x1b[31m')
    } finally {
      if (saved === undefined) delete process.env.NO_COLOR
      else process.env.NO_COLOR = saved
    }
  })

  it('redacts every secret from every kind of line, including its encoded forms and each line of a key', () => {
    const s = new FakeStream(false)
    const log = new TerminalLog({ stream: s, verbose: true })
    const key =
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx1y2\nq9Zp0wQ8lKjh\n-----END RSA PRIVATE KEY-----'
    log.secret('s3cr3t"value')
    log.secret(key)
    log.info('secret is s3cr3t"value')
    log.debug('json {"clientSecret":"s3cr3t\\"value"}')
    log.warning('url ?secret=' + encodeURIComponent('s3cr3t"value'))
    log.error('b64 ' + Buffer.from('s3cr3t"value').toString('base64'))
    log.startGroup('key line MIIEowIBAAKCAQEAx1y2')
    log.progress('k', 'q9Zp0wQ8lKjh')
    log.info(key)
    const all = s.text
    for (const leak of ['s3cr3t', 'MIIEowIBAAKCAQEAx1y2', 'q9Zp0wQ8lKjh', 'czNjcjN0InZhbHVl', 'PRIVATE KEY'])
      expect({ leak, found: all.includes(leak) }).toEqual({ leak, found: false })
    expect(all).toContain('secret is ***')
    log.close()
  })

  it('redacts a longer secret whole when it contains a shorter one', () => {
    const r = new Redactor()
    r.add('abc')
    r.add('abcdefgh')
    expect(r.redact('x abcdefgh y abc')).toBe('x *** y ***')
  })

  it('hides the forms a secret takes: trimmed, each line of six characters or more, JSON, URL, base64 from eight', () => {
    const r = new Redactor()
    r.add('  padded-secret  ')
    expect(r.redact('value padded-secret here')).toBe('value *** here')
    const lines = new Redactor()
    lines.add('abcde\nsix-ch\nlonger-line')
    expect(lines.redact('abcde six-ch longer-line')).toBe('abcde *** ***')
    expect(lines.redact('"abcde\\nsix-ch\\nlonger-line"')).toBe('"***"')
    const seven = new Redactor()
    seven.add('abcdefg')
    expect(seven.redact(Buffer.from('abcdefg').toString('base64'))).toBe('YWJjZGVmZw==')
    const eight = new Redactor()
    eight.add('abcdefgh')
    expect(eight.redact(`b64 ${Buffer.from('abcdefgh').toString('base64')}`)).toBe('b64 ***')
    expect(eight.redact(`url ${encodeURIComponent('a b&c=d')}`)).toBe('url a%20b%26c%3Dd')
    eight.add('a b&c=d')
    expect(eight.redact(`url ${encodeURIComponent('a b&c=d')}`)).toBe('url ***')
  })

  it('ignores an empty secret and forms of one character, and counts each form once', () => {
    const r = new Redactor()
    r.add('')
    r.add('x')
    expect(r.size).toBe(0)
    expect(r.redact('x marks the spot')).toBe('x marks the spot')
    r.add('ab')
    expect(r.size).toBe(1)
    expect(r.redact('ab cab')).toBe('*** c***')
    r.add('ab')
    expect(r.size).toBe(1)
    const key = new Redactor()
    key.add('secret-one')
    const one = key.size
    key.add('secret-one\nsecret-two')
    expect(key.size).toBeGreaterThan(one)
    expect(key.redact('secret-one secret-two')).toBe('*** ***')
  })

  it('keeps one live line per key on a TTY, updated in place, under the lines printed meanwhile', () => {
    const s = new FakeStream(true, 60)
    let now = 1_000_000
    const log = new TerminalLog({ stream: s, now: () => now, color: false })
    log.startGroup('stack')
    log.progress('nic-cluster-policy', 'OFED driver ready on 0/8 nodes')
    log.progress('ib-node-config', 'ib-setup completed on 0/8 nodes')
    now += 65_000
    log.progress('nic-cluster-policy', 'OFED driver ready on 3/8 nodes')
    log.info('helm: gpu-operator deployed')
    log.progress('nic-cluster-policy', 'OFED driver ready on 5/8 nodes')
    expect(s.screen).toEqual([
      '==> stack',
      '  helm: gpu-operator deployed',
      '  … OFED driver ready on 5/8 nodes [1m05s]',
      '  … ib-setup completed on 0/8 nodes [1m05s]'
    ])
    // A line longer than the terminal is cut, so the block keeps its height.
    log.progress('ib-node-config', 'x'.repeat(200))
    expect(s.screen.at(-1)!.length).toBeLessThan(60)
    // An empty update ends a key's line; the end of its group ends the rest.
    log.progress('ib-node-config', '')
    expect(s.screen).toHaveLength(3)
    log.endGroup()
    expect(s.screen).toEqual(['==> stack', '  helm: gpu-operator deployed'])
    log.close()
  })

  it('without a TTY prints a key at most once per throttle window, never losing its last change', () => {
    jest.useFakeTimers({ now: 0 })
    const s = new FakeStream(false)
    const log = new TerminalLog({ stream: s, throttleMs: 5000 })
    log.progress('pool', 'Creating (0s)')
    for (let i = 1; i <= 9; i++) {
      jest.advanceTimersByTime(500)
      log.progress('pool', `Creating (${i}s)`)
    }
    log.progress('other', 'waiting 0/2')
    expect(s.writes).toEqual(['Creating (0s)\n', 'waiting 0/2\n'])
    jest.advanceTimersByTime(500)
    expect(s.writes).toEqual(['Creating (0s)\n', 'waiting 0/2\n', 'Creating (9s)\n'])
    log.progress('pool', 'Creating (9s)') // unchanged: nothing more
    jest.advanceTimersByTime(10_000)
    expect(s.writes).toHaveLength(3)
    expect(s.text).not.toContain('\x1b[')
    log.close()
  })

  it('without a TTY a key that ends inside its throttle window ends on its last count, not its first', () => {
    jest.useFakeTimers({ now: 0 })
    const s = new FakeStream(false)
    const log = new TerminalLog({ stream: s, throttleMs: 5000 })
    log.startGroup('rdma-device-plugin')
    log.progress('rdma-device-plugin', 'rdma-device-plugin: 0/1 nodes ready')
    jest.advanceTimersByTime(200)
    log.progress('rdma-device-plugin', 'rdma-device-plugin: 1/1 nodes ready')
    log.endGroup() // the step ends before the window does
    expect(s.writes).toEqual([
      '==> rdma-device-plugin\n',
      '  rdma-device-plugin: 0/1 nodes ready\n',
      '  rdma-device-plugin: 1/1 nodes ready\n'
    ])
    // An explicit end (an empty update) flushes it too, and nothing comes later.
    log.progress('pool', 'Creating 0/2')
    log.progress('pool', 'Creating 2/2')
    log.progress('pool', '')
    jest.advanceTimersByTime(10_000)
    expect(s.writes.slice(3)).toEqual(['Creating 0/2\n', 'Creating 2/2\n'])
    log.close()
  })
})

describe('terminal log, details', () => {
  it('shows a live line’s elapsed time in seconds, minutes and hours', () => {
    const s = new FakeStream(true, 80)
    let now = 0
    const log = new TerminalLog({ stream: s, now: () => now, color: false })
    log.progress('k', 'waiting')
    const shown = (ms: number) => {
      now = ms
      log.progress('k', 'waiting')
      return s.screen.at(-1)
    }
    expect(shown(59_999)).toBe('  … waiting [59s]')
    expect(shown(60_000)).toBe('  … waiting [1m00s]')
    expect(shown(3_599_000)).toBe('  … waiting [59m59s]')
    expect(shown(3_600_000)).toBe('  … waiting [1h00m]')
    expect(shown(7_380_000)).toBe('  … waiting [2h03m]')
    log.close()
    expect(s.screen).toEqual([])
  })

  it('cuts a live line to the terminal’s width with an ellipsis, its line breaks as spaces', () => {
    const s = new FakeStream(true, 31)
    const log = new TerminalLog({ stream: s, now: () => 0, color: false })
    log.progress('k', 'a\n  b')
    expect(s.screen).toEqual(['  … a b [0s]'])
    log.progress('k', 'x'.repeat(40))
    // 30 columns: the text and its elapsed time fill them exactly.
    expect(s.screen).toEqual([`  … ${'x'.repeat(20)}… [0s]`])
    expect(s.screen[0]).toHaveLength(30)
    log.progress('k', 'y'.repeat(21))
    expect(s.screen).toEqual([`  … ${'y'.repeat(21)} [0s]`])
    log.close()
  })

  it('labels notices, indents the lines of a message under its label, and drops trailing line ends', () => {
    const s = new FakeStream(false)
    const log = new TerminalLog({ stream: s })
    log.notice('first\r\nsecond\rthird\n\n', { title: 'T' })
    log.info('one\ntwo')
    log.startGroup('g')
    log.warning('w1\nw2')
    expect(s.text).toBe('notice: T: first\n  second\n  third\none\ntwo\n==> g\n  warning: w1\n    w2\n')
    log.close()
  })

  it('nests groups: a key ends with the group it started in, the outer one keeps its own', () => {
    const s = new FakeStream(true, 80)
    const log = new TerminalLog({ stream: s, now: () => 0, color: false })
    log.endGroup() // no group open: nothing happens
    log.startGroup('outer')
    log.progress('a', 'outer key')
    log.startGroup('inner')
    log.progress('b', 'inner key')
    expect(s.screen.slice(-2)).toEqual(['  … outer key [0s]', '  … inner key [0s]'])
    log.endGroup()
    expect(s.screen.slice(-1)).toEqual(['  … outer key [0s]'])
    log.info('still inside outer')
    expect(s.screen).toEqual(['==> outer', '==> inner', '  still inside outer', '  … outer key [0s]'])
    log.endGroup()
    expect(s.screen).toEqual(['==> outer', '==> inner', '  still inside outer'])
  })

  it('leaves no timer behind once every key has ended', () => {
    jest.useFakeTimers({ now: 0 })
    const tty = new TerminalLog({ stream: new FakeStream(true), color: false })
    tty.progress('a', 'x')
    tty.progress('b', 'y')
    expect(jest.getTimerCount()).toBe(1)
    tty.progress('a', '')
    expect(jest.getTimerCount()).toBe(1)
    tty.progress('b', '')
    expect(jest.getTimerCount()).toBe(0)
    const plain = new TerminalLog({ stream: new FakeStream(false), throttleMs: 5000 })
    plain.progress('a', '1')
    plain.progress('a', '2')
    expect(jest.getTimerCount()).toBe(1)
    plain.close()
    expect(jest.getTimerCount()).toBe(0)
  })

  it('redraws a TTY’s live block every second while a key is live', () => {
    jest.useFakeTimers({ now: 0 })
    const s = new FakeStream(true, 80)
    const log = new TerminalLog({ stream: s, color: false })
    log.progress('k', 'waiting')
    jest.advanceTimersByTime(2_000)
    expect(s.screen).toEqual(['  … waiting [2s]'])
    log.close()
  })

  it('colours a label alone, and a debug line whole', () => {
    const s = new FakeStream(true)
    const log = new TerminalLog({ stream: s, color: true, verbose: true })
    log.error('bad')
    log.debug('detail')
    expect(s.text).toBe(`${ESC}[31merror:${ESC}[0m bad\n${ESC}[2mdebug: detail${ESC}[0m\n`)
  })
})
