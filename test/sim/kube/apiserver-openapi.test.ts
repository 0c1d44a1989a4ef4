// The simulated API server's OpenAPI: v3 group-version documents with the built-in kinds' schemas
// generated from the .proto files (x-kubernetes-group-version-kind, descriptions, inlined structs,
// Time and Quantity as strings) and a CRD's own schema for its kind; /openapi/v2 as JSON and as
// gnostic protobuf, negotiated the way kube-openapi's handler does it.
import { describe, expect, it } from '@jest/globals'
import { decodeOpenApiV2Protobuf, openApiV2Media } from '../../../sim/kube/apiserver/openapi-v2-proto.js'
import { worldForTests, bytesRequest, crdObject } from '../../support/apiserver-world.js'

const get = (p: string, accept = 'application/json') => bytesRequest(w, p, { headers: { accept } })

const w = worldForTests()

describe('OpenAPI v3', () => {
  it('publishes the schemas of a group-version’s kinds, found by x-kubernetes-group-version-kind', async () => {
    const index = JSON.parse((await get('/openapi/v3')).body.toString())
    const url = index.paths['apis/apps/v1'].serverRelativeURL
    const doc = JSON.parse((await get(url)).body.toString())
    const schemas = doc.components.schemas
    const ds = schemas['io.k8s.api.apps.v1.DaemonSet']
    expect(ds['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', kind: 'DaemonSet', version: 'v1' }
    ])
    expect(ds.description).toBe('DaemonSet represents the configuration of a daemon set.')
    expect(ds.properties.spec).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DaemonSetSpec' }]
    })
    expect(Object.keys(ds.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status'])
    expect(schemas['io.k8s.api.apps.v1.DaemonSetSpec'].required).toEqual(['selector', 'template'])
    // Inlined structs are flattened; wire forms are strings.
    const volume = schemas['io.k8s.api.core.v1.Volume']
    expect(volume.properties).toHaveProperty('hostPath')
    expect(volume.properties).not.toHaveProperty('volumeSource')
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toMatchObject({
      type: 'string',
      format: 'date-time'
    })
    expect(schemas['io.k8s.apimachinery.pkg.api.resource.Quantity'].type).toBe('string')
    // The patch operation still tells kubectl the server validates fields.
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/daemonsets/{name}'].patch
    expect(patch.parameters.map((p: any) => p.name)).toContain('fieldValidation')
  })

  it('publishes a CRD’s schema for its kind', async () => {
    w.put(
      'apiextensions.k8s.io',
      'customresourcedefinitions',
      crdObject('example.com', 'Widget', {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            description: 'What a widget is.',
            properties: { size: { type: 'integer' } }
          }
        }
      })
    )
    for (let i = 0; i < 50 && !w.store.type('example.com', 'widgets'); i++)
      await new Promise(r => setTimeout(r, 20))
    const doc = JSON.parse((await get('/openapi/v3/apis/example.com/v1')).body.toString())
    const widget = doc.components.schemas['com.example.v1.Widget']
    expect(widget['x-kubernetes-group-version-kind']).toEqual([
      { group: 'example.com', kind: 'Widget', version: 'v1' }
    ])
    expect(widget.properties.spec.description).toBe('What a widget is.')
    expect(widget.properties.metadata.allOf[0].$ref).toBe(
      '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'
    )
    expect(doc.components.schemas).toHaveProperty(['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'])
  })
})

describe('OpenAPI v2', () => {
  it('negotiates JSON or gnostic protobuf as kube-openapi does', () => {
    expect(openApiV2Media('')).toBe('json')
    expect(openApiV2Media('application/com.github.proto-openapi.spec.v2@v1.0+protobuf')).toBe('protobuf')
    expect(
      openApiV2Media('application/com.github.proto-openapi.spec.v2.v1.0+protobuf, application/json')
    ).toBe('protobuf')
    expect(openApiV2Media('text/html')).toBeUndefined()
  })

  it('serves the Swagger document as JSON and as protobuf with the same definitions', async () => {
    const json = await get('/openapi/v2')
    expect(json.type).toBe('application/json')
    const doc = JSON.parse(json.body.toString())
    expect(doc.swagger).toBe('2.0')
    const pod = doc.definitions['io.k8s.api.core.v1.Pod']
    expect(pod.properties.spec).toEqual({
      $ref: '#/definitions/io.k8s.api.core.v1.PodSpec',
      description: expect.stringMatching(/^Specification of the desired behavior of the pod\./)
    })

    const pb = await get('/openapi/v2', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf')
    expect(pb.type).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf')
    const decoded = decodeOpenApiV2Protobuf(pb.body)
    const defs = decoded.definitions.additional_properties as Array<{ name: string; value: any }>
    expect(defs.map(d => d.name)).toEqual(Object.keys(doc.definitions))
    const podPb = defs.find(d => d.name === 'io.k8s.api.core.v1.Pod')!.value
    expect(podPb.vendor_extension).toEqual([
      {
        name: 'x-kubernetes-group-version-kind',
        value: { yaml: '- group: ""\n  kind: Pod\n  version: v1\n' }
      }
    ])
    expect(podPb.type).toEqual({ value: ['object'] })
    expect(podPb.properties.additional_properties.find((p: any) => p.name === 'spec').value._ref).toBe(
      '#/definitions/io.k8s.api.core.v1.PodSpec'
    )

    expect((await get('/openapi/v2', 'text/html')).status).toBe(406)
  })
})
