// The workflow-command renderer: what @actions/core writes (including its %-escaping) becomes
// terminal lines, masks become redactions, stop-commands is honoured, chunks split anywhere, and
// tagged progress lines reach the Log's progress.
import { describe, expect, it } from '@jest/globals'
import * as core from '@actions/core'
import { actionsLog } from '../../../src/log/index.js'
import { PROGRESS_TAG_ENV, WorkflowCommandRenderer } from '../../../src/log/terminal-commands.js'
import { TerminalLog } from '../../../src/log/terminal.js'
import { stdoutOf } from '../../support/stdout.js'
import { textLines } from '../../support/text-lines.js'

function terminal(verbose = false) {
  const writes: string[] = []
  const log = new TerminalLog({ stream: { write: t => writes.push(t), isTTY: false }, verbose })
  return { log, text: () => writes.join('') }
}

describe('workflow command renderer', () => {
  it('renders what @actions/core writes without a single workflow command line', () => {
    const t = terminal(true)
    const r = new WorkflowCommandRenderer(t.log)
    r.write(
      stdoutOf(() => {
        core.startGroup('credentials: user credentials')
        core.setSecret('eyJhbGciOi.token.sig')
        core.info('token eyJhbGciOi.token.sig received')
        core.debug('GET /x with eyJhbGciOi.token.sig')
        core.warning('count differs', { title: 'node-pool: drift' })
        core.error('failed: step\nnext line', { title: 'aks-rdma-action: verify failed' })
        core.notice('fyi')
        core.endGroup()
        core.setOutput('result', 'success') // no GITHUB_OUTPUT here: a ::set-output command
      })
    )
    r.end()
    const text = t.text()
    expect(text).not.toMatch(/^\s*::/m)
    expect(text).not.toContain('eyJhbGciOi')
    expect(text).toBe(
      textLines(
        '==> credentials: user credentials',
        '  token *** received',
        '  debug: GET /x with ***',
        '  warning: node-pool: drift: count differs',
        '  error: aks-rdma-action: verify failed: failed: step',
        '    next line',
        '  notice: fyi',
        'debug: (set-output)',
        ''
      )
    )
  })

  it('redacts a multi-line secret (an admin kubeconfig key) line by line', () => {
    const t = terminal()
    const r = new WorkflowCommandRenderer(t.log)
    const key = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx1y2abc\n-----END RSA PRIVATE KEY-----'
    r.write(stdoutOf(() => core.setSecret(key)))
    r.write(`client-key: MIIEowIBAAKCAQEAx1y2abc\n${key}\n`)
    expect(t.text()).not.toContain('MIIEowIBAAKCAQEAx1y2abc')
    expect(t.text()).not.toContain('PRIVATE KEY')
  })

  it('renders lines split across chunks, and a last line without newline at end()', () => {
    const t = terminal()
    const r = new WorkflowCommandRenderer(t.log)
    for (const ch of '::group::a\nline one\n::endgroup::\ntail') r.write(ch)
    expect(t.text()).toBe('==> a\n  line one\n')
    r.end()
    expect(t.text()).toBe('==> a\n  line one\ntail\n')
  })

  it('prints lines as text between ::stop-commands:: and the token, masks still collected before', () => {
    const t = terminal()
    const r = new WorkflowCommandRenderer(t.log)
    r.write(
      '::add-mask::hunter22\n::stop-commands::tok123\n::error::not a command\nhunter22\n::tok123::\n::error::a command\n'
    )
    expect(t.text()).toBe('::error::not a command\n***\nerror: a command\n')
  })

  it('collects masks only from a run whose log is not shown', () => {
    const t = terminal()
    const quiet = new WorkflowCommandRenderer(t.log, { masksOnly: true })
    quiet.write('::add-mask::tok-abc-123\nsome log line\n::error::x\n')
    expect(t.text()).toBe('')
    t.log.info('later: tok-abc-123')
    expect(t.text()).toBe('later: ***\n')
  })

  it('turns tagged lines into progress updates', () => {
    const updates: Array<[string, string]> = []
    const log = { ...silentish(), progress: (k: string, l: string) => updates.push([k, l]) }
    const r = new WorkflowCommandRenderer(log, { progressTag: '@@p1@@' })
    r.write(`@@p1@@${JSON.stringify(['node-pool', 'Creating 1/2'])}\n@@p1@@["node-pool",""]\n`)
    expect(updates).toEqual([
      ['node-pool', 'Creating 1/2'],
      ['node-pool', '']
    ])
  })

  it('ends, at its end, the progress keys an output started and never ended (a child that exited)', () => {
    const updates: Array<[string, string]> = []
    const log = { ...silentish(), progress: (k: string, l: string) => updates.push([k, l]) }
    const r = new WorkflowCommandRenderer(log, { progressTag: '@@p1@@' })
    r.write('@@p1@@["gpu-operator","1/2 nodes"]\n@@p1@@["node-pool","Creating"]\n@@p1@@["node-pool",""]\n')
    r.end()
    expect(updates).toEqual([
      ['gpu-operator', '1/2 nodes'],
      ['node-pool', 'Creating'],
      ['node-pool', ''],
      ['gpu-operator', '']
    ])
  })

  it('the Actions backend tags progress only when simulate asks, so the runner log is unchanged', () => {
    const saved = process.env[PROGRESS_TAG_ENV]
    try {
      delete process.env[PROGRESS_TAG_ENV]
      expect(stdoutOf(() => actionsLog.progress('node-pool', 'Creating 1/2'))).toBe('Creating 1/2\n')
      expect(stdoutOf(() => actionsLog.progress('node-pool', ''))).toBe('')
      process.env[PROGRESS_TAG_ENV] = '@@t@@'
      const tagged = stdoutOf(() => actionsLog.progress('node-pool', 'Creating 2/2'))
      expect(tagged).toBe('@@t@@["node-pool","Creating 2/2"]\n')
      const updates: Array<[string, string]> = []
      const log = { ...silentish(), progress: (k: string, l: string) => updates.push([k, l]) }
      new WorkflowCommandRenderer(log, { progressTag: '@@t@@' }).write(tagged)
      expect(updates).toEqual([['node-pool', 'Creating 2/2']])
    } finally {
      if (saved === undefined) delete process.env[PROGRESS_TAG_ENV]
      else process.env[PROGRESS_TAG_ENV] = saved
    }
  })
})

function silentish() {
  const none = () => {}
  return {
    info: none,
    debug: none,
    warning: none,
    error: none,
    startGroup: none,
    endGroup: none,
    secret: none
  }
}
