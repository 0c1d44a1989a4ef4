// Scripted faults of the Azure half against the real SDK retry policies: 429 with a (scaled)
// Retry-After is retried, 429 without it is surfaced, 500 and connection resets are retried
// with backoff, and catch-all faults leave Entra/OIDC alone unless they name those paths.
import https from 'node:https'
import {
  ARM_SCOPE,
  clients,
  ibPool,
  secretCredential,
  type TestWorld,
  withWorld
} from '../../support/sim-azure-world.js'
import { rejection } from '../../support/rejection.js'

function rawGet(w: TestWorld, p: string): Promise<{ status: number; headers: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    https
      .get(`${w.sim.armEndpoint}${p}`, { ca: w.tls.caPem }, res => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
      })
      .on('error', reject)
  })
}

const statuses = (w: TestWorld, method: string, fragment: string) =>
  w.recorder.records.filter(r => r.method === method && r.path.includes(fragment)).map(r => r.status)

describe('faults', () => {
  it('429 with Retry-After on pool PUTs is retried by the SDK until it goes through', async () => {
    await withWorld(
      {
        faults: [{ match: 'PUT */agentPools/*', status: 429, retryAfter: 2, times: 2 }]
      },
      async w => {
        const pool = await clients(w).aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool(), {
          updateIntervalInMs: 5
        })
        expect(pool.provisioningState).toBe('Succeeded')
        expect(statuses(w, 'PUT', '/agentPools/ib')).toEqual([429, 429, 201])
      }
    )
  })

  it('sends Retry-After in scaled real seconds, and none when the fault has no retryAfter', async () => {
    await withWorld(
      {
        faults: [
          { match: 'GET /throttled-with', status: 429, retryAfter: 300 },
          { match: 'GET /throttled-without', status: 429 }
        ]
      },
      async w => {
        const withHint = await rawGet(w, '/throttled-with')
        expect(withHint.status).toBe(429)
        expect(withHint.headers['retry-after']).toBe('3') // 300 simulated s at timeScale 0.01
        const without = await rawGet(w, '/throttled-without')
        expect(without.status).toBe(429)
        expect(without.headers['retry-after']).toBeUndefined()
      }
    )
  })

  it('a 429 without Retry-After is not retried: the SDK surfaces it', async () => {
    await withWorld({ faults: [{ match: 'GET */agentPools/*', status: 429, times: 1 }] }, async w => {
      const e = await rejection<any>(clients(w).aks.agentPools.get(w.rg, w.cluster, 'system'))
      expect([e.statusCode, e.code]).toEqual([429, 'TooManyRequests'])
      expect(statuses(w, 'GET', '/agentPools/system')).toEqual([429])
    })
  })

  it('a 500 on the feature GET is retried with backoff', async () => {
    await withWorld({ faults: [{ match: 'GET */features/*', status: 500, times: 1 }] }, async w => {
      const f = await clients(w).features.features.get('Microsoft.ContainerService', 'AKSInfinibandSupport')
      expect(f.properties?.state).toBe('NotRegistered')
      expect(statuses(w, 'GET', '/features/')).toEqual([500, 200])
    })
  })

  it('a connection reset is retried; the catch-all fault does not touch Entra', async () => {
    await withWorld({ faults: [{ match: '*', reset: true, times: 1 }] }, async w => {
      const p = await clients(w).aks.agentPools.get(w.rg, w.cluster, 'system')
      expect(p.name).toBe('system')
      const seen = w.recorder.records.map(r => `${r.service} ${r.status}`)
      expect(seen).toEqual(['entra 200', 'entra 200', 'arm 0', 'arm 200'])
    })
  })

  it('faults naming an Entra path hit the token endpoint', async () => {
    await withWorld({ faults: [{ match: 'POST */oauth2/v2.0/token', status: 503, times: 1 }] }, async w => {
      await expect(secretCredential(w).getToken(ARM_SCOPE)).rejects.toThrow()
      expect((await secretCredential(w).getToken(ARM_SCOPE))?.token).toBeTruthy()
      expect(
        w.recorder.records.filter(r => r.service === 'entra' && r.method === 'POST').map(r => r.status)
      ).toEqual([503, 200])
    })
  })
})
