// Untrusted text through the Actions backend: a line that the runner could take for a workflow
// command (`::` at its start after white space, the legacy `##[` anywhere) is printed inside
// ::stop-commands::<random token> … ::<token>::, everything else as it is; annotation titles and
// group names lose their line breaks. Checked by reading the output as the runner does.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { actionsLog, commandSafe, looksLikeCommand, withoutLineBreaks } from '../../../src/log/index.js'
import { runnerCommands } from '../../support/runner-commands.js'

const HOSTILE = [
  'evil\n::warning title=INJECTED-FROM-CLUSTER::owned',
  'x\n::add-mask::aks-rdmapool',
  '   ::error::indented',
  '\t::notice::tabbed',
  '\u0085::set-output name=result::success',
  'mid-line ##[add-mask]aks-rdmapool',
  'a\r::warning::carriage return',
  'a\r\n::endgroup::',
  '::stop-commands::guess\nstill hostile\n::guess::\n::add-mask::after',
  '##[stop-commands]abc'
]

let out: string[] = []
const write = process.stdout.write.bind(process.stdout)
beforeEach(() => {
  out = []
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out.push(String(chunk))
    return true
  }) as typeof process.stdout.write
})
afterEach(() => {
  process.stdout.write = write
})

describe('commandSafe', () => {
  it('leaves ordinary text as it is, colons and brackets included', () => {
    for (const t of ['network-operator: written', 'a :: b', 'image: ghcr.io/x:v1', 'x ## [y]', ''])
      expect(commandSafe(t)).toBe(t)
    expect(looksLikeCommand('a\n  b::c')).toBe(false)
  })

  it.each(HOSTILE)('wraps %j so the runner carries out nothing of it', text => {
    expect(looksLikeCommand(text)).toBe(true)
    // Printed raw, the runner would carry it out (the reader is not vacuous).
    if (!text.includes('stop-commands')) expect(runnerCommands(text)).not.toEqual([])
    const safe = commandSafe(text)
    const token = /^::stop-commands::([0-9a-f]{32})\n/.exec(safe)?.[1]
    expect(token).toBeDefined()
    expect(safe).toBe(`::stop-commands::${token}\n${text}\n::${token}::`)
    expect(runnerCommands(safe)).toEqual([])
  })

  it('a fresh token every time', () => {
    const a = commandSafe('::x::y')
    const b = commandSafe('::x::y')
    expect(a).not.toBe(b)
  })

  it('single-line fields lose their line breaks', () => {
    expect(withoutLineBreaks('a\nb\r\nc\u2028d')).toBe('a b c d')
  })
})

describe('the Actions backend', () => {
  it('prints hostile info and progress lines without a command reaching the runner', () => {
    delete process.env.AKS_RDMA_ACTION_PROGRESS_TAG
    for (const t of HOSTILE) actionsLog.info(`diagnostic:\n      ${t}`)
    for (const t of HOSTILE) actionsLog.progress('step', t)
    const text = out.join('')
    expect(runnerCommands(text)).toEqual([])
    // The text itself is all there, for a person to read.
    for (const t of HOSTILE) expect(text).toContain(t)
  })

  it('warnings, errors and groups: one command each, with the hostile text as data, not commands', () => {
    actionsLog.warning('w\n::add-mask::aks-rdmapool', { title: 'T\n::error::x' })
    actionsLog.error('e\n##[add-mask]aks-rdmapool')
    actionsLog.startGroup('g\n::add-mask::aks-rdmapool')
    actionsLog.endGroup()
    const cmds = runnerCommands(out.join(''))
    expect(cmds.map(c => c.command)).toEqual(['warning', 'error', 'group', 'endgroup'])
    expect(cmds[0].properties.title).toBe('T ::error::x')
    expect(cmds[0].data).toBe('w\n::add-mask::aks-rdmapool')
    expect(cmds[2].data).toBe('g ::add-mask::aks-rdmapool')
  })

  it('a safe line is printed as it is', () => {
    actionsLog.info('network-operator: written')
    expect(out.join('')).toBe('network-operator: written\n')
  })
})
