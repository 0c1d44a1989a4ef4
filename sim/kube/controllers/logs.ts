// Container logs of every simulated pod, kept per pod and container (current and previous
// instance, as `kubectl logs --previous` reads), with the options the log endpoint takes.
export interface LogOptions {
  previous?: boolean
  tailLines?: number
  timestamps?: boolean
  sinceSeconds?: number
  limitBytes?: number
}

interface Line {
  /** Simulated wall time, ms since epoch. */
  at: number
  text: string
}

interface ContainerLog {
  current: Line[]
  previous?: Line[]
}

const MAX_LINES = 20_000

type LogListener = (text: string) => void

export class LogStore {
  private readonly pods = new Map<string, { order: string[]; containers: Map<string, ContainerLog> }>()
  private readonly listeners = new Map<string, Set<LogListener>>()
  constructor(private readonly now: () => number) {}

  /** Calls `fn` with each text appended to a container's log from now on, until the returned function is called. */
  subscribe(ns: string, pod: string, container: string, fn: LogListener): () => void {
    const k = `${ns}/${pod}/${container}`
    let s = this.listeners.get(k)
    if (!s) this.listeners.set(k, (s = new Set()))
    s.add(fn)
    return () => {
      s.delete(fn)
      if (!s.size) this.listeners.delete(k)
    }
  }

  private entry(ns: string, pod: string, container: string): ContainerLog {
    const k = `${ns}/${pod}`
    let p = this.pods.get(k)
    if (!p) this.pods.set(k, (p = { order: [], containers: new Map() }))
    let c = p.containers.get(container)
    if (!c) {
      p.containers.set(container, (c = { current: [] }))
      p.order.push(container)
    }
    return c
  }

  /** Appends text (one or more lines) to a container's current log. */
  append(ns: string, pod: string, container: string, text: string): void {
    const c = this.entry(ns, pod, container)
    const at = this.now()
    const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n')
    for (const l of lines) c.current.push({ at, text: l })
    if (c.current.length > MAX_LINES) c.current.splice(0, c.current.length - MAX_LINES)
    const out = lines.map(l => `${l}\n`).join('')
    for (const fn of this.listeners.get(`${ns}/${pod}/${container}`) ?? []) fn(out)
  }

  /** A container restarted: the current log becomes the previous one. */
  rotate(ns: string, pod: string, container: string): void {
    const c = this.entry(ns, pod, container)
    c.previous = c.current
    c.current = []
  }

  dropPod(ns: string, pod: string): void {
    this.pods.delete(`${ns}/${pod}`)
  }

  has(ns: string, pod: string, container?: string): boolean {
    const p = this.pods.get(`${ns}/${pod}`)
    return !!p && (container === undefined || p.containers.has(container))
  }

  /** The log text, or undefined when the pod/container has none. */
  read(ns: string, pod: string, container?: string, opts: LogOptions = {}): string | undefined {
    const p = this.pods.get(`${ns}/${pod}`)
    if (!p) return undefined
    const name = container ?? p.order[0]
    const c = name === undefined ? undefined : p.containers.get(name)
    if (!c) return undefined
    let lines = opts.previous ? c.previous : c.current
    if (!lines) return undefined
    if (opts.sinceSeconds !== undefined) {
      const from = this.now() - opts.sinceSeconds * 1000
      lines = lines.filter(l => l.at >= from)
    }
    if (opts.tailLines !== undefined) lines = opts.tailLines <= 0 ? [] : lines.slice(-opts.tailLines)
    let out = lines
      .map(l =>
        opts.timestamps ? `${new Date(l.at).toISOString().replace('Z', '000000Z')} ${l.text}` : l.text
      )
      .join('\n')
    if (lines.length) out += '\n'
    if (opts.limitBytes !== undefined) out = Buffer.from(out).subarray(0, opts.limitBytes).toString()
    return out
  }
}
