// How long a test's simulated world lives: one test (withWorld, closeAfterTest) or the tests of a
// describe (worldForTests); the other world helpers build on these (CONTRIBUTING.md, "Tests").
import { afterAll, afterEach, beforeAll } from '@jest/globals'

interface Closable {
  close(): void | Promise<void>
}

/** The worlds the running test handed to closeAfterTest, closed after it. */
const testWorlds = new Set<Closable>()
afterEach(async () => {
  const open = [...testWorlds]
  testWorlds.clear()
  for (const w of open) await w.close()
})

/** `w`, closed after the running test however it ends. */
export function closeAfterTest<W extends Closable>(w: W): W {
  testWorlds.add(w)
  return w
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
