// The run's cancellation by signal (docs/lease.md "Cancellation"): the first SIGINT or SIGTERM
// cancels the run — the waits end at once (a watch rejects with RunCancelledError), the next safe
// point throws — and says so; a second signal exits at once with 128 + its number.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { EventEmitter } from 'node:events'
import { EXIT } from '../../../src/exit-codes.js'
import { watchAll, type WatchSource } from '../../../src/kube/watch.js'
import { setLogBackend, type Log } from '../../../src/log/index.js'
import { handleCancelSignals } from '../../../src/run/cancel-signals.js'
import {
  cancelledBy,
  cancelSignal,
  resetCancellation,
  RunCancelledError,
  throwIfCancelled
} from '../../../src/util/cancel.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'

/** A source whose list answers and whose watch never sends anything. */
const silent: WatchSource = {
  name: 'pods',
  list: async () => ({ items: [], resourceVersion: '1' }),
  watch: async () => ({ stop: () => undefined })
}

let log: CapturedLog
let previous: Log
let stop: () => void
let exits: number[]
/** Stands in for the process: Jest's sandboxed process object does not deliver emitted signals. */
let signals: EventEmitter
beforeEach(() => {
  log = captureLog()
  previous = setLogBackend(log)
  exits = []
  signals = new EventEmitter()
  stop = handleCancelSignals(code => exits.push(code), signals)
})
afterEach(() => {
  stop()
  setLogBackend(previous)
  resetCancellation()
})

describe('cancellation by signal', () => {
  it.each([
    ['SIGINT', EXIT.interrupted],
    ['SIGTERM', EXIT.terminated]
  ] as const)(
    '%s: a wait in progress ends, the next safe point throws; a second signal exits %i at once',
    async (signal, code) => {
      const waiting = watchAll({ pods: silent }, () => ({ done: false, message: 'not yet' }), {
        timeoutMs: 600_000
      })
      signals.emit(signal, signal)
      await expect(waiting).rejects.toThrow(new RunCancelledError(signal, 'while waiting on pods'))
      expect(cancelledBy()).toBe(signal)
      expect(cancelSignal().aborted).toBe(true)
      expect(() => throwIfCancelled('before writing Deployment a/b')).toThrow(
        `cancelled by ${signal}: stopped before writing Deployment a/b`
      )
      expect(log.warnings).toEqual([
        expect.stringContaining(`${signal} received: stopping at the next safe point`)
      ])
      expect(exits).toEqual([])
      signals.emit(signal, signal)
      expect(exits).toEqual([code])
    }
  )

  it('a wait started after the signal ends at once', async () => {
    signals.emit('SIGINT', 'SIGINT')
    await expect(
      watchAll({ pods: silent }, () => ({ done: false }), { timeoutMs: 600_000 })
    ).rejects.toBeInstanceOf(RunCancelledError)
  })
})
