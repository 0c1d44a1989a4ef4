// Unit-test helper: a node:http server on 127.0.0.1 standing in for the Kubernetes API server, for
// code that reaches the cluster only through a kubeconfig (@kubernetes/client-node over HTTP).
// Every request is recorded as `METHOD path?query` and answered with the status and JSON body the
// test sets (a failure as the API server sends it: a v1 Status). writeKubeconfig writes a
// kubeconfig whose one context points at it, with a bearer-token user, as `az aks get-credentials`
// would for a plain-HTTP server.
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ApiAnswer {
  status: number
  body: unknown
}

export interface LocalApiServer {
  /** What every request is answered with; the test may change it. */
  answer: ApiAnswer
  /** `METHOD url` of each request, in order. */
  requests: string[]
  writeKubeconfig(file: string): void
  close(): Promise<void>
}

/** The API server's failure: a v1 Status with the code, reason and message. */
export const apiFailure = (code: number, reason: string, message: string): ApiAnswer => ({
  status: code,
  body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code, message }
})

export async function startLocalApiServer(answer: ApiAnswer): Promise<LocalApiServer> {
  const requests: string[] = []
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`)
    res.writeHead(api.answer.status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(api.answer.body))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const api: LocalApiServer = {
    answer,
    requests,
    writeKubeconfig: file =>
      writeFileSync(
        file,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          `- name: c\n  cluster:\n    server: http://127.0.0.1:${port}\n    insecure-skip-tls-verify: true`,
          'users:',
          '- name: u\n  user:\n    token: t',
          'contexts:',
          '- name: x\n  context:\n    cluster: c\n    user: u',
          'current-context: x',
          ''
        ].join('\n')
      ),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }
  return api
}
