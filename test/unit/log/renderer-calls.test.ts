// The workflow-command renderer as calls on a recording log: which commands it recognises (and the
// lines it leaves as text), the blank line @actions/core writes before a command a terminal does not
// show, CR line ends, stop-commands, tagged progress lines, annotations with their file and line,
// and masks-only runs that print nothing; then the Actions log seam's own helpers.
import { describe, expect, it } from '@jest/globals'
import { actionsLog, lineLog, secretLines, withoutLineBreaks } from '../../../src/log/index.js'
import { parseWorkflowCommand, WorkflowCommandRenderer } from '../../../src/log/terminal-commands.js'
import type { Annotation } from '../../../src/log/types.js'
import { stdoutOf } from '../../support/stdout.js'

/** A log recording each call as one string. */
function recorder(withNotice = true) {
  const calls: string[] = []
  const rec = (name: string) => (line: string, a?: Annotation) =>
    calls.push(`${name} ${JSON.stringify(line)}${a ? ` ${JSON.stringify(a)}` : ''}`)
  const log = {
    info: rec('info'),
    debug: rec('debug'),
    warning: rec('warning'),
    error: rec('error'),
    ...(withNotice ? { notice: rec('notice') } : {}),
    startGroup: rec('group'),
    endGroup: () => calls.push('endgroup'),
    progress: (key: string, line: string) => calls.push(`progress ${key} ${JSON.stringify(line)}`),
    secret: rec('secret')
  }
  return { log, calls }
}

describe('what the parser takes for a command', () => {
  const command = (name: string, properties: Record<string, string>, message: string) => ({
    command: name,
    properties,
    message
  })
  // A leading name of letters, digits, - and _, after optional indentation, up to the second ::;
  // properties are key=value pairs (a pair without a key or = left out), the value unescaped.
  it.each([
    ['  ::Warning::x', command('warning', {}, 'x')],
    ['::set-output name=a::', command('set-output', { name: 'a' }, '')],
    ['::a_b-1::m', command('a_b-1', {}, 'm')],
    // After a space come properties: `name!` is one without `=`, so none.
    ['::bad name!::m', command('bad', {}, 'm')],
    [
      '::error file=a.ts, line = 3,=x,novalue,title=a%3Ab%2Cc%0D%0Ad%25::m',
      command('error', { file: 'a.ts', line: ' 3', title: 'a:b,c\r\nd%' }, 'm')
    ],
    [
      '::error title=step%3A verify,file=a%2Cb.ts,line=3::one%0Atwo 100%25',
      command('error', { title: 'step: verify', file: 'a,b.ts', line: '3' }, 'one\ntwo 100%')
    ],
    ['::debug ::m', command('debug', {}, 'm')],
    ['::debug::a%0Db%0ac%25%3A', command('debug', {}, 'a\rb\nc%%3A')]
  ])('%j', (line, parsed) => {
    expect(parseWorkflowCommand(line)).toEqual(parsed)
  })

  it.each([
    'x ::warning::y',
    '::warning',
    '::1abc::m',
    ':warning::x',
    '::::x',
    '::1 is IPv6 localhost',
    'plain text'
  ])('%j is no command', line => {
    expect(parseWorkflowCommand(line)).toBeUndefined()
  })
})

describe('the renderer, call by call', () => {
  it('renders each command, the location and title of an annotation, and unknown commands as text', () => {
    const { log, calls } = recorder()
    const r = new WorkflowCommandRenderer(log)
    r.write(
      [
        '::group::step',
        '::debug::d',
        '::warning file=a.ts,line=3,title=T::w',
        '::error file=b.ts::e',
        '::notice::n',
        '::endgroup::',
        '::save-state name=x::1',
        '::frobnicate::f',
        'plain'
      ].join('\r\n') + '\r\n'
    )
    r.end()
    expect(calls).toEqual([
      'group "step"',
      'debug "d"',
      'warning "a.ts:3: w" {"title":"T"}',
      'error "b.ts: e"',
      'notice "n"',
      'endgroup',
      'debug "(save-state)"',
      'info "frobnicate: f"',
      'info "plain"'
    ])
  })

  it('shows a notice as info where the log has no notice, with its title and location', () => {
    const { log, calls } = recorder(false)
    new WorkflowCommandRenderer(log).write('::notice file=c.ts,line=9,title=Heads up::look\n::notice::bare\n')
    expect(calls).toEqual(['info "notice: Heads up: c.ts:9: look"', 'info "notice: bare"'])
  })

  it('holds a blank line back: dropped before a command a terminal does not show, kept otherwise', () => {
    const { log, calls } = recorder()
    const r = new WorkflowCommandRenderer(log)
    r.write('\n::set-output name=a::1\n\n::warning::w\n\ntext\n\n')
    expect(calls).toEqual(['debug "(set-output)"', 'info ""', 'warning "w"', 'info ""', 'info "text"'])
    r.end()
    expect(calls.at(-1)).toBe('info ""')
    r.end()
    expect(calls).toHaveLength(6)
  })

  it('stop-commands: everything is text until its token comes back, then commands again', () => {
    const { log, calls } = recorder()
    const r = new WorkflowCommandRenderer(log)
    r.write('::stop-commands::tok\n::warning::not one\n  ::tok::  \n::warning::one\n')
    expect(calls).toEqual(['info "::warning::not one"', 'warning "one"'])
  })

  it('masks become secrets; a tagged line is progress, or its text when it is not JSON', () => {
    const { log, calls } = recorder()
    const r = new WorkflowCommandRenderer(log, { progressTag: '@@p ' })
    r.write('::add-mask::s3cret\n@@p ["pool","2/3"]\n@@p not json\nx@@p ["k","v"]\n')
    expect(calls).toEqual([
      'secret "s3cret"',
      'progress pool "2/3"',
      'info "not json"',
      'info "x@@p [\\"k\\",\\"v\\"]"'
    ])
  })

  it('a masks-only run collects masks and prints nothing else', () => {
    const { log, calls } = recorder()
    const r = new WorkflowCommandRenderer(log, { masksOnly: true, progressTag: '@@p ' })
    r.write('\n::group::g\ntext\n::stop-commands::t\nhidden\n::t::\n@@p ["k","v"]\n::add-mask::m\n\n')
    r.end()
    expect(calls).toEqual(['secret "m"'])
  })

  it('a last line without its newline is rendered at the end', () => {
    const { log, calls } = recorder()
    const r = new WorkflowCommandRenderer(log)
    r.write('::warn')
    r.write('ing::split')
    expect(calls).toEqual([])
    r.end()
    expect(calls).toEqual(['warning "split"'])
  })
})

describe('the log seam’s helpers', () => {
  it('a single-line field has every kind of line break as one space', () => {
    expect(withoutLineBreaks('a\r\nb\nc\u0085d\u2028e\u2029f\r\r\ng')).toBe('a b c d e f g')
  })

  it('lineLog writes info, warnings, errors and progress lines, and nothing else', () => {
    const lines: string[] = []
    const log = lineLog(l => lines.push(l))
    log.info('i')
    log.warning('w')
    log.error('e')
    log.progress('k', 'p')
    log.debug('d')
    log.startGroup('g')
    log.endGroup()
    log.secret('s')
    expect(lines).toEqual(['i', 'w', 'e', 'p'])
  })
})

describe('the Actions backend', () => {
  it('annotations carry a one-line title, or none; groups a one-line title', () => {
    expect(stdoutOf(() => actionsLog.warning('w', { title: 'a\nb' }))).toBe('::warning title=a b::w\n')
    expect(stdoutOf(() => actionsLog.error('e'))).toBe('::error::e\n')
    expect(stdoutOf(() => actionsLog.error('e', { title: '' }))).toBe('::error::e\n')
    expect(stdoutOf(() => actionsLog.startGroup('g\r\nh'))).toBe('::group::g h\n')
  })

  it('masks only a value (progress: terminal-commands.test.ts)', () => {
    expect(stdoutOf(() => actionsLog.secret(''))).toBe('')
    expect(stdoutOf(() => actionsLog.secret('v4lue'))).toBe('::add-mask::v4lue\n')
  })

  it('masks a multi-line secret line by line, as the runner masks what it prints', () => {
    const key = '-----BEGIN PRIVATE KEY-----\r\nMIIEvQIBADAN\n  QUFBQkJC  \n\n-----END PRIVATE KEY-----\n'
    expect(stdoutOf(() => actionsLog.secret(key))).toBe(
      [
        '::add-mask::-----BEGIN PRIVATE KEY-----',
        '::add-mask::MIIEvQIBADAN',
        '::add-mask::QUFBQkJC',
        '::add-mask::-----END PRIVATE KEY-----',
        ''
      ].join('\n')
    )
    expect(secretLines('a\rb\u0085c\na')).toEqual(['a', 'b\u0085c'])
    expect(secretLines(' \n ')).toEqual([])
    // A JSON secret (creds): its braces are no secret, its lines are; a lone short value still is.
    expect(secretLines('{\n  "clientSecret": "s3cr3t",\n  "x": 1\n},\n')).toEqual([
      '"clientSecret": "s3cr3t",',
      '"x": 1'
    ])
    expect(secretLines('{}\n')).toEqual(['{}'])
    expect(secretLines('ab')).toEqual(['ab'])
  })
})
