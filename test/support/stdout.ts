// What a synchronous piece of code writes to process.stdout (what @actions/core prints there),
// captured and returned; the stream's own write is put back whatever happens.
export function stdoutOf(fn: () => void): string {
  const chunks: string[] = []
  const write = process.stdout.write
  process.stdout.write = ((c: string | Uint8Array) => {
    chunks.push(String(c))
    return true
  }) as typeof process.stdout.write
  try {
    fn()
  } finally {
    process.stdout.write = write
  }
  return chunks.join('')
}
