// Hostile inputs are refused by the settings, naming the input, before anything runs: durations
// beyond the timer's reach, files that are not regular files (a FIFO, /dev/zero) or too large,
// files that parse as YAML but are not values (an /etc/shadow-like file) and files that do not
// parse — with nothing of their content echoed; endpoints carrying credentials or control
// characters, and hosts or ports outside the known clouds unless allow-custom-endpoints is set
// (then a warning naming the host); a helm-version whose SHA-256 the action does not pin.
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readSettings, type SettingsResult } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { problemsOf as problemsOfInputs } from '../../support/input-problems.js'

function read(values: Record<string, string>): SettingsResult {
  return readSettings(reader({ ...VALID_APPLY, ...values }), {})
}
/** The problems of the valid apply inputs with `values` changed. */
const problemsOf = (values: Record<string, string>) => problemsOfInputs({ ...VALID_APPLY, ...values })

const dir = mkdtempSync(path.join(tmpdir(), 'hostile-inputs-'))
function file(name: string, text: string | Buffer): string {
  const p = path.join(dir, name)
  writeFileSync(p, text)
  return p
}

describe('durations are bounded, and the bound is said', () => {
  it('refuses what would overflow a timer (or round to nothing) instead of firing at once', () => {
    expect(problemsOf({ timeout: '99999999999999h' })).toEqual([
      'timeout "99999999999999h": out of range; must be from 1s to 120h'
    ])
    expect(problemsOf({ 'step-timeout': '121h' })).toEqual([
      'step-timeout "121h": out of range; must be from 1s to 120h'
    ])
    expect(problemsOf({ 'step-timeout': '1'.repeat(400) + 's' })[0]).toMatch(
      /^step-timeout "1{63}…" \(401 characters\): out of range; must be from 1s to 120h$/
    )
    // A bare number needs its unit, and the message never repeats the long value.
    const bare = problemsOf({ 'step-timeout': '1'.repeat(400) })[0]
    expect(bare).toMatch(/^step-timeout "1{63}…" \(400 characters\): needs a unit/)
    expect(bare).not.toMatch(/1{64}/)
    expect(problemsOf({ timeout: '500ms' })).toEqual([
      'timeout "500ms": out of range; must be from 1s to 120h'
    ])
    expect(read({ timeout: '120h', 'step-timeout': '1s' }).settings.wait).toMatchObject({
      timeoutMs: 120 * 3_600_000,
      stepTimeoutMs: 1000
    })
  })
})

describe('files given as inputs', () => {
  it('a FIFO or a device is refused at once, never read (the test would hang otherwise)', () => {
    const fifo = path.join(dir, 'values.fifo')
    execFileSync('mkfifo', [fifo])
    expect(problemsOf({ 'network-operator-values': fifo })).toEqual([
      `network-operator-values "${fifo}": not a regular file (a FIFO)`
    ])
    expect(problemsOf({ 'gpu-operator-values': '/dev/zero' })).toEqual([
      'gpu-operator-values "/dev/zero": not a regular file (a character device)'
    ])
    expect(problemsOf({ 'nic-cluster-policy': dir })).toEqual([
      `nic-cluster-policy "${dir}": not a regular file (a directory)`
    ])
  })

  it('a file over 1 MiB is refused before it is read', () => {
    const big = file('big.yaml', Buffer.alloc(1024 * 1024 + 1, 'a'))
    expect(problemsOf({ 'gpu-operator-values': big })).toEqual([
      `gpu-operator-values "${big}": 1048577 bytes; at most 1 MiB`
    ])
  })

  it('a file that parses to a mapping of non-names (an /etc/shadow) is refused, none of it echoed', () => {
    const shadow = file('shadow', 'root:*:20228:0:99999:7:::\nsecret-user:$6$salt$hash:20228:0:99999:7:::\n')
    const [problem, ...more] = problemsOf({ 'network-operator-values': shadow })
    expect(more).toEqual([])
    expect(problem).toBe(
      `network-operator-values "${shadow}": 2 top-level keys are not a name (letters, digits, _, - and .), so this is not helm values`
    )
    expect(problem).not.toMatch(/root|secret-user|\$6\$/)
  })

  it('a file that does not parse is named with where and what kind of error, never its text', () => {
    const broken = file('broken.yaml', 'password: "hunter2\nuser: [admin, secret-token\n')
    const [problem] = problemsOf({ 'gpu-operator-values': broken })
    expect(problem).toMatch(
      new RegExp(
        `^gpu-operator-values ".+broken\\.yaml": not valid YAML at line \\d+, column \\d+ \\([A-Z_]+\\)$`
      )
    )
    expect(problem).not.toMatch(/hunter2|admin|secret-token/)
  })
})

describe('endpoints', () => {
  it('credentials and control characters are refused whatever is allowed, and not echoed', () => {
    const problems = problemsOf({
      'arm-endpoint': 'https://user:pass@evil.example/%0A',
      'allow-custom-endpoints': 'true'
    })
    expect(problems).toEqual([
      'arm-endpoint "https://***@evil.example/%0A": must not contain spaces or control characters (raw or %-encoded)'
    ])
    expect(problemsOf({ 'authority-host': 'https://user:pass@login.microsoftonline.com' })).toEqual([
      'authority-host "https://***@login.microsoftonline.com": must not carry credentials (user:password@): the action sends its own tokens'
    ])
    expect(problemsOf({ 'authority-host': 'https://login.microsoftonline.com\r\n::add-mask::x' })[0]).toMatch(
      /: must not contain spaces or control characters \(raw or %-encoded\)$/
    )
  })

  it('a host or port outside the known clouds needs allow-custom-endpoints, and then draws a warning naming it', () => {
    expect(problemsOf({ 'arm-endpoint': 'https://arm.example.net' })).toEqual([
      `arm-endpoint "arm.example.net": host arm.example.net is not an Azure cloud endpoint; set allow-custom-endpoints: true to send the run's tokens there (Azure Stack, a proxy, the simulator)`
    ])
    expect(problemsOf({ 'arm-endpoint': 'https://management.azure.com:8443' })).toEqual([
      `arm-endpoint "management.azure.com:8443": port 8443 of management.azure.com is not an Azure cloud endpoint; set allow-custom-endpoints: true to send the run's tokens there (Azure Stack, a proxy, the simulator)`
    ])
    const allowed = read({ 'arm-endpoint': 'https://arm.example.net:8443', 'allow-custom-endpoints': 'true' })
    expect(allowed.settings.azure.armEndpoint).toBe('https://arm.example.net:8443')
    expect(allowed.warnings).toEqual([
      "arm-endpoint: the run's Azure tokens and OIDC assertion go to arm.example.net:8443, outside the known Azure clouds (allow-custom-endpoints: true)"
    ])
    // Another known cloud's own endpoint needs nothing.
    expect(read({ 'authority-host': 'https://login.microsoftonline.us' }).warnings).toEqual([])
  })
})

describe('helm', () => {
  it('a helm-version whose SHA-256 the action does not pin is refused unless helm-sha256 pins a helm on PATH', () => {
    expect(problemsOf({ 'helm-version': 'v3.18.4' })).toEqual([
      'helm-version "v3.18.4": this action pins the SHA-256 of v3.19.0 only, so it cannot check a download of v3.18.4; use one of those, or install that helm on the runner and give its SHA-256 as helm-sha256'
    ])
    const sha = 'A'.repeat(64)
    expect(read({ 'helm-version': 'v3.18.4', 'helm-sha256': sha }).settings.stack).toMatchObject({
      helmVersion: 'v3.18.4',
      helmSha256: 'a'.repeat(64)
    })
    expect(problemsOf({ 'helm-sha256': 'abc' })).toEqual([
      'helm-sha256 "abc": must be a SHA-256 in hex (64 characters), as sha256sum prints it'
    ])
    expect(read({}).settings.stack.helmSha256).toBeUndefined()
  })
})
