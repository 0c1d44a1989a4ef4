// A small VT100 screen for tests: applies what a program wrote to a terminal (text, CR, LF, the
// cursor moves and erases the terminal log uses: CSI n A / n F / J / K, colours ignored) and
// returns the lines a person would see, scrollback included. A line longer than the screen wraps
// (autowrap), and the cursor never moves above the screen's top row, as on a real terminal.
const ESC = String.fromCharCode(27)
const CSI = new RegExp(`^${ESC}\\[([?0-9;]*)([A-Za-z])`)

export interface Vt100Options {
  columns?: number
  rows?: number
  /** The pty turns LF into CR LF (onlcr): true for a program's raw output; false for a `script` capture. */
  lfIsNewline?: boolean
  /** Join a line the screen wrapped to the next row back into one (tmux capture-pane -J). */
  joinWrapped?: boolean
}

export function renderScreen(bytes: string, o: Vt100Options = {}): string[] {
  const columns = o.columns ?? 80
  const rows = o.rows ?? 50
  const lfIsNewline = o.lfIsNewline ?? true
  const lines: string[][] = [[]]
  let row = 0
  let col = 0
  /** Rows that continue the row above (the screen wrapped a long line there). */
  const wrapped = new Set<number>()
  /** The first line of the visible screen (lines above are scrollback). */
  const top = (): number => Math.max(0, lines.length - rows)
  const down = (wrap = false): void => {
    row++
    if (row >= lines.length) lines.push([])
    if (wrap) wrapped.add(row)
    else wrapped.delete(row)
  }
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]
    if (c === ESC) {
      const m = CSI.exec(bytes.slice(i, i + 16))
      if (!m) continue
      i += m[0].length - 1
      const n = Number(m[1] || '1')
      switch (m[2]) {
        case 'A':
          row = Math.max(top(), row - n)
          break
        case 'F':
          row = Math.max(top(), row - n)
          col = 0
          break
        case 'J':
          if ((m[1] || '0') === '0') {
            lines[row].length = col
            lines.length = row + 1
            for (const r of wrapped) if (r > row) wrapped.delete(r)
          }
          break
        case 'K':
          if ((m[1] || '0') === '0') lines[row].length = col
          else if (m[1] === '2') lines[row] = []
          break
        default: // colours, cursor visibility: nothing on the text
      }
      continue
    }
    if (c === '\r') {
      col = 0
      continue
    }
    if (c === '\n') {
      down()
      if (lfIsNewline) col = 0
      continue
    }
    if (c < ' ') continue
    if (col >= columns) {
      down(true)
      col = 0
    }
    const line = lines[row]
    while (line.length < col) line.push(' ')
    line[col++] = c
  }
  const rowsOut = lines.map(l => l.join(''))
  const out: string[] = []
  for (const [i, l] of rowsOut.entries())
    if (o.joinWrapped && wrapped.has(i) && out.length) out[out.length - 1] += l
    else out.push(l)
  for (const [i, l] of out.entries()) out[i] = l.trimEnd()
  while (out.length && out.at(-1) === '') out.pop()
  return out
}
