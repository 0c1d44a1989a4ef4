// Scenario faults for the Kubernetes API: `{ api: "PATCH *", status: 500, times: 2 }` answers
// matching requests with an error, `reset: true` destroys the socket instead, and
// `{ watch: disconnect, every: 20s }` cuts every watch stream after that much simulated time.
import type { SimClock } from '../../contracts.js'
import type { FaultSpec } from '../../scenario.js'
import { durationOf } from '../../scenario.js'

interface ApiFault {
  spec: FaultSpec
  method: RegExp
  path: RegExp
  left: number
}

function glob(text: string): RegExp {
  const body = text
    .split('*')
    .map(p => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${body}$`, 'i')
}

export interface ApiFaultHit {
  status?: number
  retryAfter?: number
  reset: boolean
}

export class KubeFaults {
  private readonly api: ApiFault[] = []
  private readonly watch: Array<{ spec: FaultSpec; left: number }> = []

  constructor(
    faults: FaultSpec[],
    private readonly clock: SimClock
  ) {
    for (const f of faults) {
      if (f.api) {
        const text = f.api.trim()
        const space = text.indexOf(' ')
        const [m, p] = space < 0 ? ['*', text] : [text.slice(0, space), text.slice(space + 1).trim()]
        this.api.push({ spec: f, method: glob(m), path: glob(p), left: f.times ?? Infinity })
      } else if (f.watch) this.watch.push({ spec: f, left: f.times ?? Infinity })
    }
  }

  /** The fault for this request, if one matches and has uses left (a use is consumed). */
  forRequest(method: string, pathname: string): ApiFaultHit | undefined {
    for (const f of this.api) {
      if (f.left <= 0 || !f.method.test(method) || !f.path.test(pathname)) continue
      f.left--
      return { status: f.spec.status, retryAfter: f.spec.retryAfter, reset: !!f.spec.reset }
    }
    return undefined
  }

  /** Real milliseconds after which a new watch stream is cut, and whether the socket is reset. */
  forWatch(): { afterMs: number; reset: boolean } | undefined {
    for (const f of this.watch) {
      if (f.left <= 0) continue
      f.left--
      return { afterMs: this.clock.real(durationOf(f.spec.every, 30_000)), reset: !!f.spec.reset }
    }
    return undefined
  }
}
