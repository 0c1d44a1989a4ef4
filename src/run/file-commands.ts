// The runner's file commands (GITHUB_OUTPUT, GITHUB_STATE): `name=value` lines and
// `name<<DELIMITER` heredocs, as @actions/core writes them.

/** Parses the runner's file command format (`name<<DELIM\nvalue\nDELIM` or `name=value`). */
export function parseFileCommands(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const [, name, delim] = heredoc
      const value: string[] = []
      while (++i < lines.length && lines[i] !== delim) value.push(lines[i])
      out[name] = value.join('\n')
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
    }
  }
  return out
}
