// A pod's log cut into the sections its script marks (`<mark> <name>` lines), each with the exit
// code its `exit=N` line gave: the transport check's and the collective check's pods print so.

export interface LogSection {
  text: string
  /** `exit=N` of the section (the last one), null when it printed none (cut short). */
  exitCode: number | null
}

const EXIT_LINE = /^exit=\d+$/

/** The sections of `log` by name; lines before the first mark belong to none. */
export function splitLogSections(log: string, mark: string): Map<string, LogSection> {
  const out = new Map<string, LogSection>()
  let name: string | undefined
  let buf: string[] = []
  const close = () => {
    if (name === undefined) return
    const exits = buf.filter(l => EXIT_LINE.test(l.trim()))
    out.set(name, {
      text: buf.filter(l => !EXIT_LINE.test(l.trim())).join('\n'),
      exitCode: exits.length ? Number(exits[exits.length - 1].trim().slice(5)) : null
    })
  }
  for (const line of log.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.startsWith(`${mark} `)) {
      close()
      name = line.slice(mark.length + 1).trim()
      buf = []
    } else if (name !== undefined) buf.push(line)
  }
  close()
  return out
}
