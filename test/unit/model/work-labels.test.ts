// The names of the action's own short-lived objects: the run's label value (a valid label value
// from any run id, a hash when the id cannot be one), the labels of a run's work pods, the pod
// name tag and DNS-1123 names, and the work namespace as it is created.
import { createHash } from 'node:crypto'
import { runLabel, workLabels } from '../../../src/model/work-labels.js'
import { dnsName, runTag, workNamespaceManifest } from '../../../src/verify/workspace.js'

const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)$/
const sha = (s: string) => createHash('sha256').update(s).digest('hex')

describe('the run label', () => {
  it.each([
    // a run id that is already a label value is kept
    ['12345-1', '12345-1'],
    ['a.b_c-D', 'a.b_c-D'],
    ['x'.repeat(63), 'x'.repeat(63)],
    // other characters turn into dashes; what is not alphanumeric is trimmed at both ends
    ['run 7/attempt 2', 'run-7-attempt-2'],
    ['--_run.7_.', 'run.7'],
    ['./a', 'a'],
    ['a/.', 'a'],
    // a hash of the id when nothing of it is left or it is too long
    ['///', `run-${sha('///').slice(0, 16)}`],
    ['', `run-${sha('').slice(0, 16)}`],
    ['x'.repeat(64), `run-${sha('x'.repeat(64)).slice(0, 16)}`],
    ['-a-', 'a']
  ])('run id %j is labelled %j, a valid label value', (id, label) => {
    expect(runLabel(id)).toBe(label)
    expect(label).toMatch(LABEL_VALUE)
  })

  it('labels a run’s work objects with the app, what they are and the run', () => {
    expect(workLabels('run 7', 'probe')).toEqual({
      'app.kubernetes.io/name': 'aks-rdma-action',
      'app.kubernetes.io/component': 'probe',
      'aks-rdma-action/run': 'run-7'
    })
  })
})

describe('work pod names', () => {
  it('tags a run with six hex characters of its id’s hash', () => {
    expect(runTag('42')).toBe(sha('42').slice(0, 6))
    expect(runTag('42')).not.toBe(runTag('43'))
  })

  it('builds a lower-case DNS-1123 label, one dash between parts, none at the ends', () => {
    expect(dnsName(['Probe', 'Node_1', 'x'])).toBe('probe-node-1-x')
    expect(dnsName(['-a', '', 'b--c', 'd-'])).toBe('a-b-c-d')
    expect(dnsName(['a'.repeat(63)])).toBe('a'.repeat(63))
  })

  it('cuts a long name and keeps it unique with a hash of the whole', () => {
    const long = ['perftest', 'server', 'n'.repeat(80)]
    const whole = `perftest-server-${'n'.repeat(80)}`
    expect(dnsName(long)).toBe(`${whole.slice(0, 56)}-${sha(whole).slice(0, 6)}`)
    expect(dnsName(long)).toHaveLength(63)
    expect(dnsName(['b'.repeat(30)], 20)).toBe(`${'b'.repeat(13)}-${sha('b'.repeat(30)).slice(0, 6)}`)
    expect(dnsName(['a'.repeat(55), '-'.repeat(10), 'z'.repeat(10)])).toMatch(
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/
    )
  })
})

describe('the work namespace and pods', () => {
  it('is labelled as the action’s and enforces the baseline pod security level', () => {
    expect(workNamespaceManifest()).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'aks-rdma-verify',
        labels: {
          'aks-rdma-action/managed': 'true',
          'app.kubernetes.io/name': 'aks-rdma-action',
          'pod-security.kubernetes.io/enforce': 'baseline'
        }
      }
    })
    expect(workNamespaceManifest('other').metadata.name).toBe('other')
  })
})
