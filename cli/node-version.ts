// The Node.js version the tool's commands need, checked before they load anything that would fail
// on an older one.
import { EXIT } from '../src/exit-codes.js'

/** The Azure SDK and the Kubernetes client need Node.js 22+ (the action runs on node24). */
export function needsModernNode(command: string): number | undefined {
  const major = Number(process.versions.node.split('.')[0])
  if (major >= 22) return undefined
  process.stderr.write(
    `${command} needs Node.js 22 or newer (the action runs on node24); this is ${process.version}.\n` +
      `Run it with Node 24, e.g.: npx -y node@24 dist/cli.js ${command} ...\n`
  )
  return EXIT.usage
}
