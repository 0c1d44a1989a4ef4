// Custom resources against their CRD's structural schema, with the NicClusterPolicy CRD the
// Network Operator v26.4.0 chart installs: a field the schema does not declare is refused under
// fieldValidation=Strict, pruned with a Warning otherwise, and fails a server-side apply; the
// schema's defaults are filled in; its validation answers 422 in kube-openapi's words (type,
// required, enum, pattern, maxLength, minimum, and a `self == oldSelf` immutability rule); its
// fields are published for `kubectl explain`; an unsupported field label is refused.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parseAllDocuments } from 'yaml'
import { chartCrds, crdVersionFor } from '../../../sim/kube/crds/index.js'
import {
  installChartCrds,
  rawRequest,
  waitFor,
  worldForTests,
  rawPatch
} from '../../support/apiserver-world.js'

const NCP_PATH = '/apis/mellanox.com/v1alpha1/nicclusterpolicies'

const w = worldForTests(async () => {
  installChartCrds(w, 'network-operator', 'v26.4.0')
  await waitFor(() => !!w.store.type('mellanox.com', 'nicclusterpolicies'))
})

const policy = (name: string, ofedDriver: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'mellanox.com/v1alpha1',
  kind: 'NicClusterPolicy',
  metadata: { name },
  spec: {
    ofedDriver: {
      image: 'doca-driver',
      repository: 'nvcr.io/nvidia/mellanox',
      version: 'doca3.2.0-25.10-1.2.8.0-2',
      ...ofedDriver
    },
    ...extra
  }
})

const post = (body: unknown, query = '') =>
  rawRequest(w, `${NCP_PATH}${query}`, { method: 'POST', body: JSON.stringify(body) })

describe('the CRDs served for the pinned chart', () => {
  it('are v26.4.0’s files for v26.4.1, whose NicClusterPolicy CRD is the same as v26.4.1’s own', () => {
    expect(crdVersionFor('network-operator', 'v26.4.1')).toBe('v26.4.0')
    const pinned = parseAllDocuments(
      readFileSync('test/fixtures/upstream/network-operator-v26.4.1-crd-nicclusterpolicies.yaml', 'utf8')
    )
      .map(d => d.toJS())
      .find(d => d?.kind === 'CustomResourceDefinition')
    const served = chartCrds('network-operator', 'v26.4.1').find(
      c => c.metadata.name === 'nicclusterpolicies.mellanox.com'
    )
    expect(served).toEqual(pinned)
  })
})

describe('fields the schema does not declare', () => {
  it('are refused under Strict, pruned with a Warning by default, and fail a server-side apply', async () => {
    const typo = policy('typo', { imagee: 'doca-driver' })
    const strict = await post(typo, '?fieldValidation=Strict')
    expect(strict.status).toBe(400)
    expect(strict.json.message).toBe(
      'NicClusterPolicy in version "v1alpha1" cannot be handled as a NicClusterPolicy: strict decoding error: unknown field "spec.ofedDriver.imagee"'
    )
    const apply = await rawPatch(
      w,
      `${NCP_PATH}/typo?fieldManager=aks-rdma-action`,
      'application/apply-patch+yaml',
      typo
    )
    expect(apply.status).toBe(500)
    expect(apply.json.message).toBe(
      'failed to create typed patch object (/typo; mellanox.com/v1alpha1, Kind=NicClusterPolicy): .spec.ofedDriver.imagee: field not declared in schema'
    )
    const warned = await post({ ...typo, metadata: { name: 'typo', labelz: { a: 'b' } } })
    expect(warned.status).toBe(201)
    expect(warned.headers.get('warning')).toBe(
      '299 - "unknown field \\"spec.ofedDriver.imagee\\"", 299 - "unknown field \\"metadata.labelz\\""'
    )
    expect(warned.json.spec.ofedDriver.imagee).toBeUndefined()
    expect(warned.json.metadata.labelz).toBeUndefined()
  })

  it('fills in the schema’s defaults', async () => {
    const created = (await post(policy('defaulted', {}))).json
    expect(created.spec.ofedDriver).toMatchObject({
      forcePrecompiled: false,
      terminationGracePeriodSeconds: 300
    })
    expect(created.metadata.generation).toBe(1)
  })
})

describe('validation', () => {
  it('answers 422 with kube-openapi’s words for type, required, enum, pattern, maxLength and minimum', async () => {
    const typed = await post(policy('typed', { version: 5 }))
    expect(typed.status).toBe(422)
    expect(typed.json.message).toBe(
      'NicClusterPolicy.mellanox.com "typed" is invalid: spec.ofedDriver.version: Invalid value: "integer": spec.ofedDriver.version in body must be of type string: "integer"'
    )
    const { image: _image, ...noImage } = policy('required', {}).spec.ofedDriver
    const required = await post({ ...policy('required', {}), spec: { ofedDriver: noImage } })
    expect(required.json.message).toBe(
      'NicClusterPolicy.mellanox.com "required" is invalid: spec.ofedDriver.image: Required value'
    )
    const operator = (extra: Record<string, unknown>) =>
      policy(
        'nco',
        {},
        {
          nicConfigurationOperator: {
            operator: { image: 'op', repository: 'r', version: 'v' },
            configurationDaemon: { image: 'd', repository: 'r', version: 'v' },
            ...extra
          }
        }
      )
    const many = await post(
      operator({
        logLevel: 'trace',
        nicFirmwareStorage: { pvcName: 'Bad_Name', storageClassName: 'x'.repeat(64) }
      })
    )
    expect(many.json.details.causes.map((c: any) => `${c.field}: ${c.message}`).sort()).toEqual([
      'spec.nicConfigurationOperator.logLevel: Unsupported value: "trace": supported values: "info", "debug"',
      'spec.nicConfigurationOperator.nicFirmwareStorage.pvcName: Invalid value: "Bad_Name": spec.nicConfigurationOperator.nicFirmwareStorage.pvcName in body should match \'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$\'',
      'spec.nicConfigurationOperator.nicFirmwareStorage.storageClassName: Too long: may not be longer than 63'
    ])
    const negative = await post(policy('negative', { terminationGracePeriodSeconds: -1 }))
    expect(negative.json.message).toBe(
      'NicClusterPolicy.mellanox.com "negative" is invalid: spec.ofedDriver.terminationGracePeriodSeconds: Invalid value: -1: spec.ofedDriver.terminationGracePeriodSeconds in body should be greater than or equal to 0'
    )
  })

  it('keeps a field its `self == oldSelf` rule makes immutable', async () => {
    const body = policy(
      'storage',
      {},
      {
        nicConfigurationOperator: {
          operator: { image: 'op', repository: 'r', version: 'v' },
          configurationDaemon: { image: 'd', repository: 'r', version: 'v' },
          nicFirmwareStorage: { create: true, pvcName: 'fw', storageClassName: 'standard' }
        }
      }
    )
    expect((await post(body)).status).toBe(201)
    const changed = await rawPatch(w, `${NCP_PATH}/storage`, 'application/merge-patch+json', {
      spec: { nicConfigurationOperator: { nicFirmwareStorage: { storageClassName: 'premium' } } }
    })
    expect(changed.status).toBe(422)
    expect(changed.json.message).toBe(
      'NicClusterPolicy.mellanox.com "storage" is invalid: spec.nicConfigurationOperator.nicFirmwareStorage.storageClassName: Invalid value: "string": storageClassName is immutable once set. nicFirmwareStorage should be deleted and created again with a new value.'
    )
  })
})

describe('what clients read of the schema', () => {
  it('publishes the CRD’s fields in OpenAPI v3 (kubectl explain) and refuses field labels it does not add', async () => {
    const index = (await rawRequest(w, '/openapi/v3')).json
    const doc = (await rawRequest(w, index.paths['apis/mellanox.com/v1alpha1'].serverRelativeURL)).json
    const ncp = doc.components.schemas['com.mellanox.v1alpha1.NicClusterPolicy']
    expect(ncp.properties.spec.properties.ofedDriver.properties.version).toEqual({
      description: 'Version of the image to use',
      type: 'string'
    })
    const field = await rawRequest(w, `${NCP_PATH}?fieldSelector=spec.ofedDriver.version%3Dx`)
    expect(field.json).toMatchObject({
      code: 400,
      message:
        '"spec.ofedDriver.version" is not a known field selector: only "metadata.name", "metadata.namespace"'
    })
  })
})
