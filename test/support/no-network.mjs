// Preloaded (node --import) into a child process that must not touch the network: any socket
// connect or DNS lookup prints a marker to stderr and fails.
import net from 'node:net'
import dns from 'node:dns'

const refuse = what => {
  process.stderr.write(`NETWORK-ATTEMPT ${what}\n`)
  throw new Error(`network access attempted: ${what}`)
}
const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function (...args) {
  const target = typeof args[0] === 'object' ? JSON.stringify(args[0]) : String(args[0])
  if (!String(target).includes('"path"')) refuse(`connect ${target}`)
  return connect.apply(this, args)
}
dns.lookup = host => refuse(`lookup ${host}`)
