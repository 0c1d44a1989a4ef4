// Stand-alone entry of the helm stand-in (tests bundle it into a `helm` executable): runs one
// invocation with this process's arguments and environment, then exits with helm's exit code.
import { helmStandin } from './index.js'

const code = await helmStandin(process.argv.slice(2), process.env, {
  stdout: s => process.stdout.write(s),
  stderr: s => process.stderr.write(s)
})
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
