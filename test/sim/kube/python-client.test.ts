// The official Python client (the Debian package python3-kubernetes) against a whole simulated
// world: list with selectors and pages (and a bad continue token, a field label the kind does not
// support), watch=True, server-side apply with its conflict, patches with the defaults the
// server filled in, exec over WebSocket, and deletes — a pod still terminating keeps its name, a
// Job orphans its pods, Foreground waits, a namespace terminates. The flows are in
// test/support/python/kube_flows.py. Skipped, with a notice, when no python3 on PATH (or
// /usr/bin/python3) imports `kubernetes`.
import { describe, expect, it, jest } from '@jest/globals'
import { execFile, execFileSync } from 'node:child_process'
import path from 'node:path'
import { scratchWorldForTests } from '../../support/scratch-world.js'

jest.setTimeout(450_000)

function findPython(): string | undefined {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(candidate, ['-c', 'import kubernetes'], { stdio: 'ignore' })
      return candidate
    } catch {
      // not there, or without the client
    }
  }
  return undefined
}

const PYTHON = findPython()
if (!PYTHON)
  console.warn(
    'no python3 with the kubernetes client (apt-get install python3-kubernetes): the Python client suite is skipped'
  )
const suite = PYTHON ? describe : describe.skip
const suiteName = PYTHON
  ? `the Python client (${PYTHON}) against a simulated world`
  : 'the Python client against a simulated world: SKIPPED, no python3 imports kubernetes (apt-get install python3-kubernetes)'

let result: any

suite(suiteName, () => {
  scratchWorldForTests('sim-python-client-', async (_world, dir) => {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        PYTHON!,
        [path.resolve('test/support/python/kube_flows.py'), path.join(dir, 'admin'), 'py-flows'],
        { timeout: 400_000, env: { ...process.env, HOME: dir } },
        (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out))
      )
    )
    result = JSON.parse(stdout.trim().split('\n').pop()!)
  })

  it('runs every flow to its end', () => {
    expect(result.errors).toBeUndefined()
  })

  it('lists with selectors and pages, and gets 400 for a bad continue token and an unsupported field', () => {
    expect(result.list).toEqual({
      names: ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4', 'kube-root-ca.crt'],
      tierA: ['cm-0', 'cm-1', 'cm-2'],
      byName: ['cm-4'],
      pages: [
        ['cm-0', 'cm-1'],
        ['cm-2', 'cm-3', 'cm-4', 'kube-root-ca.crt']
      ],
      remaining: 4,
      badContinue: {
        code: 400,
        reason: 'BadRequest',
        message: 'invalid continue token: continue key is not valid: illegal base64 data at input byte 11'
      },
      badField: { code: 400, reason: 'BadRequest', message: 'field label not supported: data.key' }
    })
  })

  it('watches with watch=True: the create, the patch and the delete', () => {
    expect(result.watch).toEqual(['ADDED', 'MODIFIED', 'DELETED'])
  })

  it('applies server-side: created, unchanged on a second apply, a conflict for another manager unless forced', () => {
    expect(result.apply.again).toBe(result.apply.created)
    expect(result.apply.managers).toEqual(['py-flows'])
    expect(result.apply.conflict).toEqual({
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "py-flows" using v1: .data.mode'
    })
    expect(result.apply.forced).toBe('ethernet')
  })

  it('patches a Deployment the server defaulted; a label leaves its generation, replicas bump it', () => {
    expect(result.patch).toEqual({
      defaults: {
        strategy: 'RollingUpdate',
        maxSurge: '25%',
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        pullPolicy: 'IfNotPresent'
      },
      generation: [1, 2, 2],
      replicas: 2
    })
  })

  it('execs a command over WebSocket', () => {
    expect(result.exec.output).toBe(`from-exec ${result.exec.pod}\n`)
  })

  it('deletes as a real cluster does', () => {
    const d = result.delete
    expect(d.podDeletion).toEqual({ grace: 30, terminating: true })
    expect(d.recreateAtOnce).toMatchObject({ code: 409, reason: 'AlreadyExists' })
    expect(d.recreateAtOnce.message).toMatch(/^object is being deleted: pods "web-\S+" already exists$/)
    expect(Object.keys(d.jobSelector)).toEqual(['batch.kubernetes.io/controller-uid'])
    expect(d.jobPodsOrphaned).toEqual([1, null])
    expect(d.foreground).toEqual({ kind: 'Deployment', finalizers: ['foregroundDeletion'] })
    expect(d.namespace).toEqual({ phase: 'Terminating' })
    expect(d.createInTerminating).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'configmaps "late" is forbidden: unable to create new content in namespace py-flows because it is being terminated'
    })
  })
})
