// Client-side `kubectl apply` against the simulated API server with the real kubectl (skipped with
// a printed reason when /usr/bin/kubectl is absent): kinds without a status field survive repeated
// applies, labels and edits without `unknown field "status"`, and a client-side apply followed by
// `kubectl apply --server-side` hands the fields over instead of conflicting.
import { expect, it } from '@jest/globals'
import { type TestWorld } from '../../support/apiserver-world.js'
import { kubectlSuite } from '../../support/kubectl-apiserver.js'

let w: TestWorld

const MANIFESTS = `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: default}
data: {a: "1"}
---
apiVersion: v1
kind: Secret
metadata: {name: sec, namespace: default}
stringData: {token: abc}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa, namespace: default}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: default}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
`

kubectlSuite(
  'client-side kubectl apply against the simulated API server',
  'sim-kubectl-csa-',
  async world => {
    w = world
  },
  ({ kubectlWith, kubectl, succeeds, file }) => {
    it('applies kinds without a status field three times, labels and patches them without warnings', async () => {
      const f = file('all.yaml', MANIFESTS)
      for (let i = 0; i < 3; i++) {
        const r = await succeeds('apply', '-f', f)
        expect(r.stderr).not.toContain('status')
      }
      // Applies that change something each time (strict field validation on every patch).
      for (let i = 0; i < 3; i++) {
        const r = await succeeds(
          'apply',
          '-f',
          file('changing.yaml', MANIFESTS.replace('a: "1"', `a: "${i + 5}"`))
        )
        expect(r.stderr).not.toContain('status')
      }
      await succeeds('apply', '-f', f)
      expect(w.store.get(w.type('', 'configmaps'), 'default', 'cfg').status).toBeUndefined()
      expect(w.store.get(w.type('', 'secrets'), 'default', 'sec').status).toBeUndefined()
      for (let i = 0; i < 2; i++) {
        const label = await succeeds('label', '--overwrite', 'configmap', 'cfg', `round=${i}`)
        expect(label.stderr).not.toContain('unknown field')
        const annotate = await succeeds('annotate', '--overwrite', 'sa', 'sa', `round=${i}`)
        expect(annotate.stderr).not.toContain('unknown field')
        const patch = await succeeds('patch', 'priorityclass', 'high', '-p', `{"description":"r${i}"}`)
        expect(patch.stderr).not.toContain('unknown field')
      }
      // No `status` key at all (not even one holding undefined) on a kind that has no status.
      expect('status' in w.store.get(w.type('', 'configmaps'), 'default', 'cfg')).toBe(false)
      expect('status' in w.store.get(w.type('', 'serviceaccounts'), 'default', 'sa')).toBe(false)
      // kubectl edit with an editor that changes one value.
      const editor = file('editor.sh', '#!/bin/sh\nsed -i \'s/a: "1"/a: "2"/\' "$1"\n')
      const edit = await kubectlWith({ KUBE_EDITOR: `sh ${editor}` }, 'edit', 'configmap', 'cfg')
      expect(edit.code).toBe(0)
      expect(edit.stderr).not.toContain('unknown field')
      expect(w.store.get(w.type('', 'configmaps'), 'default', 'cfg').data).toEqual({ a: '2' })
      const again = await succeeds('apply', '-f', f)
      expect(again.stderr).not.toContain('status')
      expect(w.store.get(w.type('', 'configmaps'), 'default', 'cfg').data).toEqual({ a: '1' })
    })
    it('hands fields over from client-side apply to kubectl apply --server-side', async () => {
      const cm = (a: string, b: string) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: migrate, namespace: default}\ndata: {a: "${a}", b: "${b}"}\n`
      await succeeds('apply', '-f', file('m1.yaml', cm('1', '1')))
      // Someone else changes b afterwards: that one is theirs, not client-side apply's.
      await succeeds('patch', 'configmap', 'migrate', '-p', '{"data":{"b":"9"}}')
      const conflict = await kubectl('apply', '--server-side', '-f', file('m2.yaml', cm('2', '2')))
      expect(conflict.code).not.toBe(0)
      expect(conflict.stderr).toContain('conflict with "kubectl-patch"')
      expect(conflict.stderr).toContain('.data.b')
      expect(conflict.stderr).not.toContain('kubectl-client-side-apply')

      const applied = await succeeds('apply', '--server-side', '-f', file('m3.yaml', cm('2', '9')))
      expect(applied.stdout).toContain('configmap/migrate serverside-applied')
      const live = w.store.get(w.type('', 'configmaps'), 'default', 'migrate')
      expect(live.data).toEqual({ a: '2', b: '9' })
      const managers = (live.metadata.managedFields as Array<{ manager: string; operation: string }>).map(
        m => `${m.manager}/${m.operation}`
      )
      expect(managers).toContain('kubectl/Apply')
      expect(managers).not.toContain('kubectl-client-side-apply/Update')
      // The last-applied annotation now says what the server-side apply applied.
      const last = JSON.parse(live.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration'])
      expect(last.data).toEqual({ a: '2', b: '9' })
      // A later client-side apply works from it.
      await succeeds('apply', '-f', file('m4.yaml', cm('3', '9')))
      expect(w.store.get(w.type('', 'configmaps'), 'default', 'migrate').data).toEqual({ a: '3', b: '9' })
    })
  }
)
