// What a promise a test expects to fail rejected with: the error itself, for assertions on its
// type and fields that `rejects.toThrow` cannot make.

/** The reason `p` rejected with; throws when it resolved. */
export async function rejection<E = Error>(p: Promise<unknown>): Promise<E> {
  try {
    await p
  } catch (e) {
    return e as E
  }
  throw new Error('expected a failure, and the call succeeded')
}
