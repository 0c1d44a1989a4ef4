// Refuses the arguments Node itself reads before this code runs (`--env-file`, config files): exit 2.
// Why: docs/security.md#node-reads-some-arguments-itself.
import { INPUTS_FILE_FLAG } from './flags.js'

/**
 * Node 24's scans, from its source: Dotenv::GetDataFromArgs (src/node_dotenv.cc: `--env-file`,
 * `--env-file-if-exists`, alone or with `=FILE`, until a `--`) and ConfigReader::GetDataFromArgs
 * (src/node_config_file.cc: `--experimental-config-file`, alone or with `=FILE`, and anything
 * starting `--experimental-default-config-file`, with no stop at `--`).
 */
const ENV_FILE = /^--env-file(?:-if-exists)?(?:=|$)/
const CONFIG_FILE = /^--experimental-(?:config-file(?:=|$)|default-config-file)/

/** The flag as given, without its value. */
function flagOf(arg: string): string {
  const eq = arg.indexOf('=')
  return eq < 0 ? arg : arg.slice(0, eq)
}

/** Why the command line may not be used (undefined when Node reads nothing from it). */
export function nodeReadArgument(argv: readonly string[]): string | undefined {
  const dashes = argv.indexOf('--')
  const envFile = (dashes < 0 ? argv : argv.slice(0, dashes)).find(a => ENV_FILE.test(a))
  if (envFile)
    return (
      `${flagOf(envFile)}: use ${INPUTS_FILE_FLAG} FILE. Node reads ${flagOf(envFile)} from any command line ` +
      'and loads the file before this tool starts (a NODE_OPTIONS in it runs code), so this tool no longer takes it'
    )
  const config = argv.find(a => CONFIG_FILE.test(a))
  if (config)
    return (
      `${flagOf(config)}: not an option of this tool. Node reads it from any command line and applies ` +
      'its file before this tool starts; give Node options to node itself, never after the script'
    )
  return undefined
}
