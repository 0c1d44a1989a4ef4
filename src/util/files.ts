// Reads a file a person named: a regular file only, up to a size cap, never blocking. It is opened with
// O_NONBLOCK and checked on the open descriptor, so a FIFO, device, socket or directory (also one swapped
// in after a check by name) is refused at once. Limits: docs/security.md#bounded-inputs.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'

/** A file that cannot be used; `reason` names no content of it (e.g. "not a regular file (a FIFO)"). */
export class FileInputError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string
  ) {
    super(`${file}: ${reason}`)
    this.name = 'FileInputError'
  }
}

/** 1 MiB: far above any values file, scenario or env file a person writes. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024

function kindOf(st: ReturnType<typeof fstatSync>): string {
  if (st.isDirectory()) return 'a directory'
  if (st.isFIFO()) return 'a FIFO'
  if (st.isCharacterDevice()) return 'a character device'
  if (st.isBlockDevice()) return 'a block device'
  if (st.isSocket()) return 'a socket'
  return 'not a file'
}

/** What the size cap reads as: `1 MiB`, `16 MiB`, `512 KiB`. */
export function byteSize(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`
  if (n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} bytes`
}

/**
 * The text of a regular file of at most `maxBytes`; throws FileInputError (never hangs) for
 * anything else: missing, unreadable, not a regular file, too large, or refused by `check` (given
 * the open file's status, it returns why the file may not be used).
 */
export function readBoundedFile(
  file: string,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
  check?: (st: Stats) => string | undefined
): string {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new FileInputError(
      file,
      code === 'ENOENT' ? 'file not found' : `cannot be read (${code ?? (e as Error).message})`
    )
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new FileInputError(file, `not a regular file (${kindOf(st)})`)
    if (st.size > maxBytes) throw new FileInputError(file, `${st.size} bytes; at most ${byteSize(maxBytes)}`)
    const refused = check?.(st)
    if (refused) throw new FileInputError(file, refused)
    // Read to the cap plus one byte: a file growing while it is read is refused too.
    const buf = Buffer.alloc(Math.min(st.size + 64 * 1024, maxBytes + 1))
    let got = 0
    for (;;) {
      if (got === buf.length)
        throw new FileInputError(
          file,
          buf.length > maxBytes ? `more than ${byteSize(maxBytes)}` : 'it grew while it was read'
        )
      const n = readSync(fd, buf, got, buf.length - got, null)
      if (n === 0) break
      got += n
    }
    return buf.subarray(0, got).toString('utf8')
  } finally {
    closeSync(fd)
  }
}
