// Reading a file a person named (only a regular file, up to a cap, never blocking, no content in a
// refusal), running work over many items with a bound on what is in flight, and the process clock.
import { jest } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { systemClock } from '../../../src/util/clock.js'
import { mapLimit } from '../../../src/util/concurrency.js'
import { byteSize, DEFAULT_MAX_FILE_BYTES, FileInputError, readBoundedFile } from '../../../src/util/files.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'bounded-file-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const refusal = (f: () => unknown): FileInputError => {
  try {
    f()
  } catch (e) {
    if (e instanceof FileInputError) return e
    throw e
  }
  throw new Error('expected a FileInputError')
}

describe('a bounded file read', () => {
  it('reads a regular file whole, up to the cap exactly', () => {
    const f = path.join(dir, 'values.yaml')
    writeFileSync(f, 'a: é\n')
    expect(readBoundedFile(f)).toBe('a: é\n')
    writeFileSync(f, 'x'.repeat(100))
    expect(readBoundedFile(f, 100)).toBe('x'.repeat(100))
    writeFileSync(f, '')
    expect(readBoundedFile(f)).toBe('')
  })

  it('refuses a file over the cap before reading it, naming the size and the cap', () => {
    const f = path.join(dir, 'big')
    writeFileSync(f, 'x'.repeat(101))
    const e = refusal(() => readBoundedFile(f, 100))
    expect(e.file).toBe(f)
    expect(e.reason).toBe('101 bytes; at most 100 bytes')
    expect(e.message).toBe(`${f}: 101 bytes; at most 100 bytes`)
    expect(e.name).toBe('FileInputError')
    writeFileSync(f, 'x'.repeat(DEFAULT_MAX_FILE_BYTES + 1))
    expect(refusal(() => readBoundedFile(f)).reason).toBe(
      `${DEFAULT_MAX_FILE_BYTES + 1} bytes; at most 1 MiB`
    )
  })

  it('refuses what is not a regular file at once: a directory, a FIFO, a device', () => {
    const sub = path.join(dir, 'sub')
    mkdirSync(sub)
    expect(refusal(() => readBoundedFile(sub)).reason).toBe('not a regular file (a directory)')
    const fifo = path.join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    expect(refusal(() => readBoundedFile(fifo)).reason).toBe('not a regular file (a FIFO)')
    expect(refusal(() => readBoundedFile('/dev/zero')).reason).toBe('not a regular file (a character device)')
  })

  it('says a file is missing or cannot be read, with the error code', () => {
    expect(refusal(() => readBoundedFile(path.join(dir, 'nope'))).reason).toBe('file not found')
    if (process.getuid?.() !== 0) {
      const locked = path.join(dir, 'locked')
      writeFileSync(locked, 'secret')
      chmodSync(locked, 0o000)
      const e = refusal(() => readBoundedFile(locked))
      expect(e.reason).toBe('cannot be read (EACCES)')
      expect(e.message).not.toContain('secret')
    }
  })

  it('writes the cap in the largest whole unit', () => {
    expect(byteSize(1024 * 1024)).toBe('1 MiB')
    expect(byteSize(16 * 1024 * 1024)).toBe('16 MiB')
    expect(byteSize(512 * 1024)).toBe('512 KiB')
    expect(byteSize(1536 * 1024)).toBe('1536 KiB')
    expect(byteSize(1000)).toBe('1000 bytes')
  })
})

describe('mapLimit', () => {
  it('keeps the results in order with at most `limit` calls in flight', async () => {
    let inFlight = 0
    let most = 0
    const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n, i) => {
      inFlight++
      most = Math.max(most, inFlight)
      for (let k = 0; k < n; k++) await Promise.resolve()
      inFlight--
      return `${i}:${n}`
    })
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0'])
    expect(most).toBe(2)
  })

  it('runs one at a time with a limit below one, and nothing for no items', async () => {
    let inFlight = 0
    let most = 0
    await mapLimit([1, 2, 3], 0, async () => {
      inFlight++
      most = Math.max(most, inFlight)
      await Promise.resolve()
      inFlight--
    })
    expect(most).toBe(1)
    const called: number[] = []
    expect(await mapLimit([], 4, async (n: number) => called.push(n))).toEqual([])
    expect(called).toEqual([])
  })

  it('rejects with the first error', async () => {
    await expect(
      mapLimit([1, 2], 2, async n => {
        if (n === 2) throw new Error('pod 2 failed')
        return n
      })
    ).rejects.toThrow('pod 2 failed')
  })
})

describe('the process clock', () => {
  afterEach(() => jest.useRealTimers())

  it('reads Date.now and ticks every period until stopped', () => {
    jest.useFakeTimers({ now: 5_000 })
    expect(systemClock.now()).toBe(5_000)
    const ticks: number[] = []
    const stop = systemClock.every(1_000, async () => void ticks.push(Date.now()))
    jest.advanceTimersByTime(3_500)
    expect(ticks).toEqual([6_000, 7_000, 8_000])
    stop()
    jest.advanceTimersByTime(5_000)
    expect(ticks).toHaveLength(3)
    expect(jest.getTimerCount()).toBe(0)
  })
})
