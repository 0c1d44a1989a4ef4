// exec and attach over WebSocket, as client-go's WebSocket executor and the kubelet speak them
// (kubernetes/kubernetes@v1.33 staging/src/k8s.io/apimachinery/pkg/util/remotecommand/constants.go
// and pkg/util/httpstream/wsstream/conn.go, client-go/tools/remotecommand/websocket.go):
// subprotocol v5.channel.k8s.io (or v4), every message one byte of channel — 0 stdin, 1 stdout,
// 2 stderr, 3 the final status, 4 terminal resize — then the data; v5 adds 255 <stream> to close a
// stream (stdin's EOF). The status is a metav1.Status: Success, or Failure with reason
// NonZeroExitCode and an ExitCode cause, the wording kubectl reads the exit code from.
import type { ExecProcess } from '../../workloads/exec.js'
import type { WebSocketConn } from './websocket.js'

export const REMOTE_COMMAND_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io']

const STDIN = 0
const STDOUT = 1
const STDERR = 2
const ERROR = 3
const CLOSE = 255

export interface StreamFlags {
  stdin: boolean
  stdout: boolean
  stderr: boolean
  tty: boolean
}

/** The Status sent on the error channel when the command ends with `code`. */
export function exitStatus(code: number, command: string[]): Record<string, unknown> {
  if (code === 0) return { metadata: {}, status: 'Success' }
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] }
  }
}

/** Runs one exec / attach session over `conn`: the process `start` gives, fed and drained by channel. */
export function serveRemoteCommand(
  conn: WebSocketConn,
  flags: StreamFlags,
  command: string[],
  start: (io: { stdout(d: Buffer): void; stderr(d: Buffer): void }) => ExecProcess
): void {
  const v5 = conn.protocol === 'v5.channel.k8s.io'
  let finished = false
  const send = (channel: number, data: Buffer) => {
    if (!finished) conn.send(Buffer.concat([Buffer.from([channel]), data]))
  }
  let proc: ExecProcess
  try {
    proc = start({
      stdout: d => flags.stdout && send(STDOUT, d),
      stderr: d => (flags.stderr || flags.tty) && send(flags.tty ? STDOUT : STDERR, d)
    })
  } catch (err) {
    send(
      ERROR,
      Buffer.from(JSON.stringify({ metadata: {}, status: 'Failure', message: (err as Error).message }))
    )
    finished = true
    conn.close()
    return
  }
  conn.onMessage(msg => {
    if (!msg.length) return
    const channel = msg[0]
    if (channel === STDIN && flags.stdin) proc.write(msg.subarray(1))
    else if (channel === CLOSE && v5 && msg[1] === STDIN) proc.closeStdin()
  })
  conn.onClose(() => {
    if (!finished) proc.kill()
  })
  // The exit is reported on the stream when it comes; the connection's handler does not wait for it.
  void proc.exited.then(code => {
    send(ERROR, Buffer.from(JSON.stringify(exitStatus(code, command))))
    finished = true
    conn.close()
  })
}
