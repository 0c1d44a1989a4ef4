// The `@jest/globals` of the mutation run's in-process test runner: describe / it / test (with
// .each, .skip, .only as the tests use them), the hooks, Jest's own `expect` (the `expect`
// package, every matcher and asymmetric matcher), `jest.fn` / `jest.spyOn` and restoring,
// clearing or resetting them all (one jest-mock ModuleMocker, as Jest's runtime has),
// `jest.setTimeout` (the calling file's default) and Jest's modern fake timers (@jest/fake-timers:
// useFakeTimers, advanceTimersByTime and its Async form, getTimerCount, setSystemTime,
// useRealTimers). Test files register into the collector the
// runner sets while it imports them; the same functions are installed as globals, as Jest injects
// them.
import { ModernFakeTimers } from '@jest/fake-timers'
import { expect } from 'expect'
import { ModuleMocker } from 'jest-mock'

const STATE = Symbol.for('aks-rdma-action.mutation-runner')

function collector() {
  const c = globalThis[STATE]?.collector
  if (!c) throw new Error('describe/it called outside the mutation runner’s test collection')
  return c
}

/** Jest's test-name formatting for .each: printf placeholders for array rows, $key for object rows. */
function formatTitle(title, row, index) {
  if (!Array.isArray(row) && row && typeof row === 'object')
    return title.replace(/\$([A-Za-z_][\w.]*)/g, (_m, key) => {
      const v = key.split('.').reduce((o, k) => o?.[k], row)
      return typeof v === 'string' ? v : JSON.stringify(v)
    })
  const args = Array.isArray(row) ? [...row] : [row]
  return title.replace(/%([sdifjopP#%])/g, (m, k) => {
    if (k === '%') return '%'
    if (k === '#') return String(index)
    if (!args.length) return m
    const v = args.shift()
    if (k === 's') return String(v)
    if (k === 'd' || k === 'i') return String(Math.trunc(Number(v)))
    if (k === 'f') return String(Number(v))
    return JSON.stringify(v)
  })
}

function each(register) {
  return table => (title, body, timeout) =>
    table.forEach((row, i) =>
      register(formatTitle(title, row, i), () => (Array.isArray(row) ? body(...row) : body(row)), timeout)
    )
}

const addTest = mode => (title, body, timeout) => collector().test(title, body, { mode, timeout })
const addDescribe = mode => (title, body) => collector().describe(title, body, { mode })

export const it = Object.assign(addTest('run'), {
  skip: addTest('skip'),
  only: addTest('only'),
  todo: title => collector().test(title, undefined, { mode: 'skip' }),
  each: each(addTest('run'))
})
export const test = it
export const describe = Object.assign(addDescribe('run'), {
  skip: addDescribe('skip'),
  only: addDescribe('only'),
  each: table => (title, body) =>
    table.forEach((row, i) =>
      addDescribe('run')(formatTitle(title, row, i), () => (Array.isArray(row) ? body(...row) : body(row)))
    )
})
export const beforeAll = body => collector().hook('beforeAll', body)
export const afterAll = body => collector().hook('afterAll', body)
export const beforeEach = body => collector().hook('beforeEach', body)
export const afterEach = body => collector().hook('afterEach', body)
let fakeTimers
const timers = () => (fakeTimers ??= new ModernFakeTimers({ global: globalThis, config: { fakeTimers: {} } }))

/** Back to real timers (the runner calls it after every test, as Jest's environment does per file). */
export function restoreRealTimers() {
  fakeTimers?.useRealTimers()
}

const mocker = new ModuleMocker(globalThis)

export const jest = {
  fn: implementation => mocker.fn(implementation),
  spyOn: (object, method, accessType) => mocker.spyOn(object, method, accessType),
  restoreAllMocks: () => mocker.restoreAllMocks(),
  clearAllMocks: () => mocker.clearAllMocks(),
  resetAllMocks: () => mocker.resetAllMocks(),
  setTimeout: ms => globalThis[STATE]?.collector?.setTimeout(ms),
  useFakeTimers: config => timers().useFakeTimers(config),
  useRealTimers: () => restoreRealTimers(),
  advanceTimersByTime: ms => timers().advanceTimersByTime(ms),
  advanceTimersByTimeAsync: ms => timers().advanceTimersByTimeAsync(ms),
  getTimerCount: () => timers().getTimerCount(),
  setSystemTime: now => timers().setSystemTime(now)
}
export { expect }

export function installGlobals(target = globalThis) {
  Object.assign(target, { describe, it, test, expect, beforeAll, afterAll, beforeEach, afterEach, jest })
}
