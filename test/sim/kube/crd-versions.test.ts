// Custom resources as kube-apiserver 1.33 serves them beyond one version, with the real kubectl
// (skipped with a printed reason when /usr/bin/kubectl is absent): every served version of a CRD in
// discovery and served with conversion None (only apiVersion changes; stored at the storage
// version), the CRD's categories (`kubectl get <category>`) and its /scale subresource.
import { expect, it } from '@jest/globals'
import { type TestWorld, rawRequest, waitFor } from '../../support/apiserver-world.js'
import { kubectlSuite } from '../../support/kubectl-apiserver.js'

let w: TestWorld

const schema = `
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                replicas: {type: integer}
                size: {type: string}
            status:
              type: object
              properties:
                replicas: {type: integer}
                selector: {type: string}`

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd], categories: [gadgets]}
  versions:
    - name: v1beta1
      served: true
      storage: false${schema}
      subresources:
        status: {}
        scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    - name: v1
      served: true
      storage: true${schema}
      subresources:
        status: {}
        scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    - name: v1alpha1
      served: false
      storage: false${schema}
`

kubectlSuite(
  'CRD versions, categories and scale',
  'sim-crd-versions-',
  async (world, { ok, file }) => {
    w = world
    await ok('apply', '-f', file('crd.yaml', CRD))
    await waitFor(() => !!w.store.type('example.com', 'widgets'))
    await ok('wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=30s')
  },
  ({ ok, file }) => {
    it('lists every served version in discovery, the preferred one first', async () => {
      const group = (await rawRequest(w, '/apis/example.com')).json
      expect(group.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1beta1'])
      expect(group.preferredVersion.version).toBe('v1')
      const beta = (await rawRequest(w, '/apis/example.com/v1beta1')).json
      expect(beta.resources.map((r: { name: string }) => r.name)).toEqual([
        'widgets',
        'widgets/status',
        'widgets/scale'
      ])
      expect(beta.resources[0].categories).toEqual(['gadgets'])
      expect((await rawRequest(w, '/apis/example.com/v1alpha1/widgets')).status).toBe(404)
    })

    it('serves each version with only apiVersion changed, storing at the storage version', async () => {
      await ok(
        'apply',
        '-f',
        file(
          'w.yaml',
          'apiVersion: example.com/v1beta1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {replicas: 1, size: s}\n'
        )
      )
      expect(w.store.get(w.type('example.com', 'widgets'), 'default', 'w1').apiVersion).toBe('example.com/v1')
      const beta = JSON.parse(await ok('get', 'widgets.v1beta1.example.com', 'w1', '-o', 'json'))
      expect(beta.apiVersion).toBe('example.com/v1beta1')
      expect(beta.spec).toEqual({ replicas: 1, size: 's' })
      const v1 = JSON.parse(await ok('get', 'widgets.v1.example.com', 'w1', '-o', 'json'))
      expect(v1.apiVersion).toBe('example.com/v1')
      const list = (await rawRequest(w, '/apis/example.com/v1beta1/namespaces/default/widgets')).json
      expect(list.apiVersion).toBe('example.com/v1beta1')
      expect(list.items.map((i: { apiVersion: string }) => i.apiVersion)).toEqual(['example.com/v1beta1'])
      const watched = await rawRequest(
        w,
        `/apis/example.com/v1beta1/namespaces/default/widgets?watch=1&timeoutSeconds=1`
      )
      expect(JSON.parse(watched.text.split('\n')[0]).object.apiVersion).toBe('example.com/v1beta1')
      // A body of another version than the URL's is refused, as upstream does.
      const mismatch = await rawRequest(w, '/apis/example.com/v1beta1/namespaces/default/widgets', {
        method: 'POST',
        body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' } })
      })
      expect(mismatch.status).toBe(400)
    })

    it('gets custom resources by their category', async () => {
      const out = await ok('get', 'gadgets')
      expect(out).toMatch(/^w1\s/m)
    })

    it('scales a custom resource through /scale at the CRD paths', async () => {
      await ok('scale', 'widget', 'w1', '--replicas=3')
      const stored = w.store.get(w.type('example.com', 'widgets'), 'default', 'w1')
      expect(stored.spec).toEqual({ replicas: 3, size: 's' })
      await ok(
        'patch',
        'widget',
        'w1',
        '--subresource=status',
        '--type=merge',
        '-p',
        '{"status":{"replicas":2,"selector":"app=w"}}'
      )
      const scale = (await rawRequest(w, '/apis/example.com/v1beta1/namespaces/default/widgets/w1/scale'))
        .json
      expect(scale).toMatchObject({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'w1', namespace: 'default' },
        spec: { replicas: 3 },
        status: { replicas: 2, selector: 'app=w' }
      })
    })
  }
)
