// The action's own retry policy in isolation (429 without Retry-After, connection failures the
// SDK leaves alone, request timeouts, caller aborts) and the client construction rules.
import { describe, expect, it } from '@jest/globals'
import {
  createHttpHeaders,
  createPipelineRequest,
  RestError,
  type PipelineRequest,
  type PipelineResponse
} from '@azure/core-rest-pipeline'
import { createArmClients, pipelineOptions, transientRetryPolicy } from '../../../src/azure/clients.js'
import { captureLog } from '../../support/capture-log.js'
import { azureSettings } from '../../support/azure-settings.js'

const tuning = { retries: 3, baseDelayMs: 1, maxDelayMs: 4 }

function response(
  request: PipelineRequest,
  status: number,
  headers: Record<string, string> = {}
): PipelineResponse {
  return { request, status, headers: createHttpHeaders(headers) }
}

function scripted(steps: Array<(r: PipelineRequest) => PipelineResponse>): {
  next: (r: PipelineRequest) => Promise<PipelineResponse>
  calls: () => number
} {
  let i = 0
  return {
    next: async r => steps[Math.min(i++, steps.length - 1)](r),
    calls: () => i
  }
}

const request = (): PipelineRequest =>
  createPipelineRequest({ url: 'https://management.azure.com/subscriptions/x', method: 'GET' })

describe('transientRetryPolicy', () => {
  it('retries a 429 without Retry-After (response or RestError) and returns the success', async () => {
    const s = scripted([
      r => response(r, 429),
      r => {
        throw new RestError('throttled', { statusCode: 429, response: response(r, 429) })
      },
      r => response(r, 200)
    ])
    const log = captureLog()
    const res = await transientRetryPolicy(tuning, log).sendRequest(request(), s.next)
    expect(res.status).toBe(200)
    expect(s.calls()).toBe(3)
    expect(log.text()).toMatch(/HTTP 429 without Retry-After; retry 1\/3/)
  })

  it('leaves a 429 with Retry-After to the SDK, and other statuses alone', async () => {
    const withHint = scripted([r => response(r, 429, { 'retry-after': '1' })])
    expect((await transientRetryPolicy(tuning).sendRequest(request(), withHint.next)).status).toBe(429)
    expect(withHint.calls()).toBe(1)
    const notFound = scripted([r => response(r, 404)])
    expect((await transientRetryPolicy(tuning).sendRequest(request(), notFound.next)).status).toBe(404)
    expect(notFound.calls()).toBe(1)
  })

  it('retries connection failures the SDK does not (EPIPE) and request timeouts, at most `retries` times', async () => {
    const epipe = scripted([
      () => {
        throw new RestError('write EPIPE', { code: 'EPIPE' })
      },
      r => response(r, 200)
    ])
    expect((await transientRetryPolicy(tuning).sendRequest(request(), epipe.next)).status).toBe(200)
    const req = request()
    const hung = scripted([
      () => {
        throw Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' })
      }
    ])
    await expect(transientRetryPolicy(tuning).sendRequest(req, hung.next)).rejects.toThrow(/aborted/)
    expect(hung.calls()).toBe(4)
    // Requests get a timeout so that none hangs forever.
    expect(req.timeout).toBe(120_000)
  })

  it('does not retry when the caller aborted', async () => {
    const controller = new AbortController()
    const req = createPipelineRequest({ url: 'https://x/', method: 'GET', abortSignal: controller.signal })
    controller.abort()
    const s = scripted([
      () => {
        throw Object.assign(new Error('aborted'), { name: 'AbortError' })
      }
    ])
    await expect(transientRetryPolicy(tuning).sendRequest(req, s.next)).rejects.toThrow()
    expect(s.calls()).toBe(1)
  })

  it('pipelineOptions bounds the SDK retry by the same count', () => {
    const o = pipelineOptions({ retries: 5, baseDelayMs: 100, maxDelayMs: 1000 })
    expect(o.retryOptions).toEqual({ maxRetries: 5, retryDelayInMs: 100, maxRetryDelayInMs: 1000 })
    expect(o.additionalPolicies).toHaveLength(1)
    expect(o.additionalPolicies[0].position).toBe('perCall')
  })
})

describe('createArmClients', () => {
  const azure = azureSettings({ armEndpoint: 'https://management.azure.com/' })
  const credential = { getToken: async () => ({ token: 't', expiresOnTimestamp: Date.now() + 3600_000 }) }
  it('needs a subscription', () => {
    expect(() => createArmClients(azure, credential, { retries: 1 })).toThrow(/subscription-id is required/)
  })
  it('builds the three clients for the subscription', () => {
    const c = createArmClients({ ...azure, subscriptionId: 'sub' }, credential, { retries: 1 })
    expect(c.armEndpoint).toBe('https://management.azure.com')
    expect(c.subscriptionId).toBe('sub')
    expect(typeof c.containerService.agentPools.createOrUpdate).toBe('function')
    expect(typeof c.features.features.register).toBe('function')
    expect(typeof c.resources.providers.register).toBe('function')
  })
})
