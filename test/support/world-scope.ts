// How long a flow test's simulated world lives: one test (withWorld) or the tests of a describe
// (worldForTests); the stack and verify worlds build on these (CONTRIBUTING.md, "Tests").
import { afterAll, beforeAll } from '@jest/globals'

interface Closable {
  close(): Promise<void>
}

/** Runs `body` in the world `start` gives, and closes it whatever `body` does. */
export async function withWorld<W extends Closable>(
  start: Promise<W>,
  body: (w: W) => Promise<void>
): Promise<void> {
  const w = await start
  try {
    await body(w)
  } finally {
    await w.close()
  }
}

/**
 * One world for the tests of the enclosing describe (or file): started (after `before`) before
 * them, closed after them. The object returned is that world once started.
 */
export function worldForTests<W extends Closable>(start: () => Promise<W>, before?: () => Promise<void>): W {
  const w = {} as W
  beforeAll(async () => {
    await before?.()
    Object.assign(w, await start())
  })
  afterAll(async () => {
    await w.close?.()
  })
  return w
}
