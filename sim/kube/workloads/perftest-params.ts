// perftest's command-line validation, as linux-rdma/perftest's src/perftest_parameters.c does it
// (parser() and force_dependecies()) at the releases the simulator models: getopt_long's own
// errors, the value checks of the options it models, the duplicate-argument check, and the
// refusals those options can reach (CUDA memory for write latency, CUDA with inline-sized
// messages, a build without CUDA, bidirectional or multi-QP latency, ...). A refused command line
// gets perftest's own texts on stdout and stderr and its exit code; an accepted one its options
// and the notices perftest prints before it opens the device. Which release and build an image
// carries comes from the image reference (perftestBuildOf); sim/README.md lists each behaviour
// with the tag it was read at.

/** A perftest version as (major, minor, patch): `25.10.0-0.128` → [25, 10, 128], `v4.5-0.20` → [4, 5, 20]. */
export type PerftestVersion = readonly [number, number, number]

/** Releases whose behaviour differs where the action's command lines reach, with the tag read. */
export const PERFTEST_RELEASES = {
  /** The first with the CUDA write-latency refusal; `--use_cuda` only exists in CUDA builds. */
  '4.5-0.20': { tag: 'v4.5-0.20', version: [4, 5, 20] },
  /** Azure NHC's build; `--use_cuda` exists in every build ("Unsupported memory type" without CUDA). */
  '23.10': { tag: '23.10.0-0.29', version: [23, 10, 29] },
  /** The last release refusing CUDA write latency as "read/send verbs only". */
  '25.10': { tag: '25.10.0-0.128', version: [25, 10, 128] },
  /** Accepts CUDA write latency with --write_with_imm only. */
  '26.04': { tag: '26.04.17', version: [26, 4, 17] }
} as const satisfies Record<string, { tag: string; version: PerftestVersion }>
export type PerftestReleaseName = keyof typeof PERFTEST_RELEASES

/** Where a behaviour starts (the first tag carrying it). */
const SINCE = {
  /** `Perftest supports CUDA latency tests with read/send verbs only` (v4.5-0.20). */
  cudaWriteLatRefused: [4, 5, 20],
  /** Duplicated arguments refused (23.04.0-0.23). */
  duplicates: [23, 4, 23],
  /** CUDA with an explicit inline size ≥ the message size refused; the inline notice printed (23.04.0-0.23). */
  cudaInline: [23, 4, 23],
  /** `--use_cuda` is an option of every build (23.07.0-0.27); before, only of CUDA builds. */
  cudaOptionAlways: [23, 7, 27],
  /** MAX_ITER 2^32 instead of 10^8 (23.07.0-0.27). */
  maxIter32: [23, 7, 27],
  /** `--write_with_imm` (24.01.0-0.38). */
  writeWithImm: [24, 1, 38],
  /** BW header unit `MiB/sec` instead of `MB/sec` (24.07.0-0.44). */
  mibUnit: [24, 7, 44],
  /** "support" instead of "supports" in the inline refusal (24.10.0-0.66). */
  inlineSpelling: [24, 10, 66],
  /** CUDA write latency allowed with --write_with_imm, with the new refusal text (perftest-26.01.5). */
  writeImmCudaLat: [26, 1, 5]
} as const satisfies Record<string, PerftestVersion>

export function atLeast(v: PerftestVersion, since: PerftestVersion): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== since[i]) return v[i] > since[i]
  return true
}

/** The perftest an image carries. */
export interface PerftestBuild {
  version: PerftestVersion
  /** Built with CUDA (cuda_memory_supported()). */
  cuda: boolean
}

/** The release an image whose tag names no version is taken to carry. */
export const DEFAULT_RELEASE: PerftestReleaseName = '26.04'

/**
 * The perftest an image carries: its tag's leading version (`:25.10`, `:4.5-0.20`, `:23.10.0-0.29`)
 * or, without one, DEFAULT_RELEASE; a name containing `nocuda` is a build without CUDA.
 */
export function perftestBuildOf(image: string): PerftestBuild {
  const ref = image.split('@')[0]
  const slash = ref.lastIndexOf('/')
  const colon = ref.lastIndexOf(':')
  const tag = colon > slash ? ref.slice(colon + 1) : ''
  // 25.10.0-0.128, v4.5-0.20, 26.04.17, 24.04
  const m = /^v?(\d+)\.(\d+)(?:\.0-0\.(\d+)|-0\.(\d+)|\.(\d+))?/.exec(tag)
  const version: PerftestVersion = m
    ? [Number(m[1]), Number(m[2]), Number(m[3] ?? m[4] ?? m[5] ?? 0)]
    : PERFTEST_RELEASES[DEFAULT_RELEASE].version
  return { version, cuda: !/nocuda/i.test(image) }
}

export const PERFTEST_TOOLS = [
  'ib_write_bw',
  'ib_read_bw',
  'ib_send_bw',
  'ib_write_lat',
  'ib_read_lat',
  'ib_send_lat'
] as const
export type PerftestTool = (typeof PERFTEST_TOOLS)[number]

export interface PerftestOptions {
  tool: PerftestTool
  device?: string
  size?: number
  all: boolean
  iters?: number
  duration?: number
  qps: number
  gbits: boolean
  port: number
  bidirectional: boolean
  cuda?: number
  /** --use_cuda_bus_id: the GPU by PCI address instead of by index. */
  cudaBusId?: string
  cudaDmabuf: boolean
  /** -I: the inline size asked for (perftest picks one per device otherwise). */
  inlineSize?: number
  /** --write_with_imm: the write-with-immediate verb. */
  writeImm: boolean
  warmUp: boolean
  host?: string
  rdmaCm: boolean
  outJson: boolean
  cpuFreq: boolean
}

/** perftest's answer to a command line it refuses: what it printed and its exit code. */
export interface PerftestRefusal {
  stdout: string
  stderr: string
  code: number
}

export type ArgvVerdict =
  { ok: true; options: PerftestOptions; notices: string[] } | { ok: false; refusal: PerftestRefusal }

const RESULT_LINE =
  '---------------------------------------------------------------------------------------\n'
/** perftest's getopt_long short-option string (the same from v4.5-0.20 to 26.04.17). */
const SHORT_OPTIONS = 'w:y:p:d:i:m:s:n:t:u:S:x:c:q:I:o:M:r:Q:A:l:D:f:B:T:L:E:J:j:K:k:X:W:aFegzRvhbNVCHUOZP'
/** Long options with a short equivalent (getopt returns the short letter). */
const LONG_SHORT: Record<string, string> = {
  port: 'p',
  'ib-dev': 'd',
  'ib-port': 'i',
  mtu: 'm',
  size: 's',
  iters: 'n',
  'tx-depth': 't',
  'qp-timeout': 'u',
  sl: 'S',
  'gid-index': 'x',
  all: 'a',
  'CPU-freq': 'F',
  connection: 'c',
  qp: 'q',
  events: 'e',
  inline_size: 'I',
  rdma_cm: 'R',
  bidirectional: 'b',
  'cq-mod': 'Q',
  duration: 'D'
}
/** Long options that set a flag (getopt returns 0), and whether they take an argument. */
const LONG_FLAGS: Record<string, { arg: boolean; since?: PerftestVersion; cuda?: true }> = {
  report_gbits: { arg: false },
  perform_warm_up: { arg: false },
  run_infinitely: { arg: false },
  cpu_util: { arg: false },
  out_json: { arg: false },
  out_json_file: { arg: true },
  use_cuda: { arg: true, cuda: true },
  use_cuda_bus_id: { arg: true, cuda: true },
  use_cuda_dmabuf: { arg: false, cuda: true },
  write_with_imm: { arg: false, since: SINCE.writeWithImm }
}

class Refused extends Error {
  constructor(readonly refusal: PerftestRefusal) {
    super(refusal.stderr || refusal.stdout)
  }
}

/** A parser() error: main() then prints " Parser function exited with Error" and returns 1. */
function parserError(stderr: string, stdout = ''): Refused {
  return new Refused({ stdout, stderr: `${stderr} Parser function exited with Error\n`, code: 1 })
}

/** A force_dependecies() refusal: RESULT_LINE on stdout (after what it printed so far), the message on stderr, exit(1). */
function dependencyRefusal(message: string, printed: string[] = []): Refused {
  return new Refused({
    stdout: printed.map(l => `${l}\n`).join('') + RESULT_LINE,
    stderr: `${message}\n`,
    code: 1
  })
}

/** strtol(s, &end, 0): the value and whether the whole text was a number. */
function strtol0(s: string): { value: number; whole: boolean } {
  const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)/.exec(s)
  if (!m) return { value: 0, whole: s.length === 0 }
  const digits = m[2]
  const value = /^0[xX]/.test(digits)
    ? parseInt(digits, 16)
    : digits.length > 1 && digits.startsWith('0')
      ? parseInt(digits, 8)
      : Number(digits)
  return { value: m[1] === '-' ? -value : value, whole: m[0].length === s.length }
}

/** CHECK_VALUE: " <name> argument <text> should be <type>" when the text is not all number. */
function checkValue(text: string, name: string, type: string): number {
  const { value, whole } = strtol0(text)
  if (!whole) throw parserError(` ${name} argument ${text} should be ${type}\n`)
  return value
}

function inRange(text: string, name: string, type: string, min: number, max: number): number {
  const v = checkValue(text, name, type)
  if (v < min || v > max) throw parserError(` ${name} should be between ${min} and ${max}\n`)
  return v
}

function isLatency(tool: PerftestTool): boolean {
  return tool.endsWith('_lat')
}

function verbOf(tool: PerftestTool): 'write' | 'read' | 'send' {
  return tool.startsWith('ib_write') ? 'write' : tool.startsWith('ib_read') ? 'read' : 'send'
}

interface Parsed {
  /** The short letter, or the long flag name. */
  opt: string
  arg?: string
}

/**
 * getopt_long over perftest's options, one option at a time as parser() reads them (GNU: options
 * and operands mixed, `--` ends the options); operands are collected into `operands`.
 */
function* getopt(argv: string[], build: PerftestBuild, operands: string[]): Generator<Parsed> {
  const prog = argv[0]
  const invalid = (msg: string): never => {
    throw parserError(
      `${prog}: ${msg}\n Invalid Command or flag.\n Please check command line and run again.\n\n`,
      usageText(prog)
    )
  }
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') {
      operands.push(...argv.slice(i + 1))
      return
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2)
      const inline = eq >= 0 ? a.slice(eq + 1) : undefined
      const short = LONG_SHORT[name]
      const flag = LONG_FLAGS[name]
      const known =
        short !== undefined ||
        (flag !== undefined &&
          (!flag.since || atLeast(build.version, flag.since)) &&
          (!flag.cuda || build.cuda || atLeast(build.version, SINCE.cudaOptionAlways)))
      if (!known) invalid(`unrecognized option '${a}'`)
      const takesArg = short ? SHORT_OPTIONS.includes(`${short}:`) : flag!.arg
      let arg: string | undefined
      if (takesArg) {
        arg = inline ?? argv[++i]
        if (arg === undefined) invalid(`option '--${name}' requires an argument`)
      } else if (inline !== undefined) invalid(`option '--${name}' doesn't allow an argument`)
      yield { opt: short ?? name, arg }
      continue
    }
    if (!a.startsWith('-') || a.length === 1) {
      operands.push(a)
      continue
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k]
      const at = SHORT_OPTIONS.indexOf(c)
      if (c === ':' || at < 0) invalid(`invalid option -- '${c}'`)
      if (SHORT_OPTIONS[at + 1] !== ':') {
        yield { opt: c }
        continue
      }
      const arg = k + 1 < a.length ? a.slice(k + 1) : argv[++i]
      if (arg === undefined) invalid(`option requires an argument -- '${c}'`)
      yield { opt: c, arg }
      break
    }
  }
}

function initialOptions(tool: PerftestTool): PerftestOptions {
  return {
    tool,
    all: false,
    qps: 1,
    gbits: false,
    port: 18515,
    bidirectional: false,
    cudaDmabuf: false,
    writeImm: false,
    warmUp: false,
    rdmaCm: false,
    outJson: false,
    cpuFreq: false
  }
}

/** -s: strtol with a K or M suffix, no integer check, 1 … UINT_MAX/2. */
function messageSize(text: string): number {
  const factor = text.endsWith('K') ? 1024 : text.endsWith('M') ? 1024 * 1024 : 1
  const size = strtol0(factor > 1 ? text.slice(0, -1) : text).value * factor
  if (size < 1 || size > 2147483647) throw parserError(' Message Size should be between 1 and 2147483647\n')
  return size
}

/** One option as parser()'s switch handles it; options it does not model are taken as given. */
function apply(o: PerftestOptions, p: Parsed, build: PerftestBuild): void {
  const lat = isLatency(o.tool)
  const arg = p.arg ?? ''
  switch (p.opt) {
    case 'p':
      o.port = checkValue(arg, 'Port', 'int')
      return
    case 'd':
      o.device = arg
      return
    case 'n': {
      const max = atLeast(build.version, SINCE.maxIter32) ? 4294967296 : 100000000
      o.iters = inRange(arg, 'Iteration num', 'uint64_t', 5, max)
      return
    }
    case 'x':
      // CHECK_VALUE_IN_RANGE_UNS casts to uint8_t before the range check.
      if ((checkValue(arg, 'Gid index', 'uint8_t') & 0xff) > 64)
        throw parserError(' Gid index should be between 0 and 64\n')
      return
    case 'h':
      throw new Refused({ stdout: usageText(o.tool), stderr: '', code: 1 })
    case 'q':
      if (lat) throw parserError(' Multiple QPs only available on bw tests\n')
      o.qps = inRange(arg, 'num of Qps', 'int', 1, 16384)
      return
    case 'I':
      o.inlineSize = inRange(arg, 'Max inline', 'int', 0, 1024)
      if (verbOf(o.tool) === 'read') throw parserError(' Inline feature not available on READ/Atomic verbs\n')
      return
    case 'D':
      o.duration = checkValue(arg, 'Duration period', 'int')
      if (o.duration <= 0) throw parserError(' Duration period must be positive\n')
      return
    case 'e':
      if (verbOf(o.tool) === 'write') throw parserError(' Events feature not available on WRITE verb\n')
      return
    case 'b':
      o.bidirectional = true
      if (lat) throw parserError(' Bidirectional is only available in BW test\n')
      return
    case 'a':
      o.all = true
      return
    case 'F':
      o.cpuFreq = true
      return
    case 'R':
      o.rdmaCm = true
      return
    case 'report_gbits':
      o.gbits = true
      return
    case 'perform_warm_up':
      o.warmUp = true
      return
    case 'out_json':
      o.outJson = true
      return
  }
  applyMemory(o, p, build)
}

/** The memory-type options, processed as they come (a DMA-BUF before --use_cuda is refused). */
function applyMemory(o: PerftestOptions, p: Parsed, build: PerftestBuild): void {
  const memory = p.opt === 'use_cuda' || p.opt === 'use_cuda_bus_id' || p.opt === 'use_cuda_dmabuf'
  if (memory && !build.cuda) throw parserError('', ' Unsupported memory type\n')
  if (p.opt === 'use_cuda') {
    const dev = checkValue(p.arg ?? '', 'CUDA device', 'int')
    if (dev < 0) throw parserError(' CUDA device must be non-negative int\n')
    o.cuda = dev
  } else if (p.opt === 'use_cuda_bus_id') {
    o.cudaBusId = p.arg ?? ''
    o.cuda = 0
  } else if (p.opt === 'use_cuda_dmabuf') {
    if (o.cuda === undefined) throw parserError('CUDA DMA-BUF cannot be used without CUDA\n')
    o.cudaDmabuf = true
  } else if (p.opt === 'write_with_imm') {
    if (verbOf(o.tool) !== 'write')
      throw parserError('Write_with_imm can only be used with write_lat and write_bw tests\n')
    o.writeImm = true
  }
}

/** force_dependecies(): the refusals and notices the modelled options reach, in perftest's order. */
function dependencies(o: PerftestOptions, build: PerftestBuild): string[] {
  const notices: string[] = []
  const lat = isLatency(o.tool)
  const size = o.all ? 8388608 : (o.size ?? (lat ? 2 : 65536))
  if (o.duration !== undefined) {
    if (!lat) notices.push(" WARNING: BW peak won't be measured in this run.")
    if (o.all)
      throw dependencyRefusal("Duration mode currently doesn't support running on all sizes.", notices)
  }
  if (o.cuda !== undefined && lat && verbOf(o.tool) === 'write') {
    if (atLeast(build.version, SINCE.writeImmCudaLat)) {
      if (!o.writeImm)
        throw dependencyRefusal(
          "Perftest doesn't support CUDA latency test with write (without immediate) verb",
          notices
        )
    } else if (atLeast(build.version, SINCE.cudaWriteLatRefused))
      throw dependencyRefusal('Perftest supports CUDA latency tests with read/send verbs only', notices)
  }
  if (
    o.cuda !== undefined &&
    o.inlineSize !== undefined &&
    size <= o.inlineSize &&
    atLeast(build.version, SINCE.cudaInline)
  ) {
    const verb = atLeast(build.version, SINCE.inlineSpelling) ? 'support' : 'supports'
    throw dependencyRefusal(`Perftest doesn't ${verb} CUDA tests with inline messages`, notices)
  }
  if (!lat && o.duration === undefined && (o.iters ?? 5000) > 20000)
    notices.push(" WARNING: BW peak won't be measured in this run.")
  // ctx_set_max_inline(), once the device is open: GPU memory never goes inline.
  if (o.cuda !== undefined && o.inlineSize === undefined && atLeast(build.version, SINCE.cudaInline))
    notices.push("Perftest doesn't supports CUDA tests with inline messages: inline size set to 0")
  return notices
}

/** A perftest command line as the build would take it: its options, or its refusal. */
export function checkPerftestArgv(argv: string[], build: PerftestBuild): ArgvVerdict {
  const tool = argv[0].split('/').pop() as PerftestTool
  const o = initialOptions(tool)
  try {
    const operands: string[] = []
    const seen = new Set<string>()
    for (const p of getopt(argv, build, operands)) {
      if (atLeast(build.version, SINCE.duplicates)) {
        if (seen.has(p.opt))
          throw parserError(` Duplicated argument: ${p.opt.length === 1 ? `-${p.opt}` : p.opt} \n`)
        seen.add(p.opt)
      }
      if (p.opt === 's') o.size = messageSize(p.arg ?? '')
      else apply(o, p, build)
    }
    if (operands.length > 1) throw parserError(' Invalid Command line. Please check command rerun \n')
    o.host = operands[0]
    return { ok: true, options: o, notices: dependencies(o, build) }
  } catch (e) {
    if (e instanceof Refused) return { ok: false, refusal: e.refusal }
    throw e
  }
}

/** The BW header's unit without --report_gbits: `MB/sec` before 24.07, `MiB/sec` from it. */
export function bytesUnit(build: PerftestBuild): 'MB/sec' | 'MiB/sec' {
  return atLeast(build.version, SINCE.mibUnit) ? 'MiB/sec' : 'MB/sec'
}

/** The first lines of perftest's usage() (stdout) for a BW or latency test over RC. */
export function usageText(tool: string): string {
  return [
    'Usage:',
    `  ${tool}            start a server and wait for connection`,
    `  ${tool} <host>     connect to server at <host>`,
    '',
    'Options:',
    '  -a, --all  Run sizes from 2 till 2^23',
    ''
  ].join('\n')
}
