// The collective check's commands and container scripts, and the reading of their logs.
// Docs: docs/collective-check.md.
import { splitLogSections, type LogSection } from '../util/log-sections.js'

export const SECTION_MARK = '@@@ aks-rdma-action nccl'
/** all_reduce_perf in Azure/aks-rdma-infiniband's image (its MPIJob's path). */
export const ALL_REDUCE_PERF = '/opt/nccl_tests/build/all_reduce_perf'
/** 1 MiB to 16 GiB by ×4: the 16 GiB Azure's health checks judge at, and a curve of 8 sizes. */
export const SIZE_ARGS = ['-b', '1M', '-e', '16G', '-f', '4'] as const
export const SSH_PORT = 2222
/** mpirun attempts (5 s apart) while the worker still runs its own node's test. */
export const CONNECT_ATTEMPTS = 120
const INTER_LOG = '/tmp/aks-rdma-nccl-inter.log'

const SAFE_WORD = /^[A-Za-z0-9_./=:,@%+-]+$/

function word(a: string): string {
  if (!SAFE_WORD.test(a)) throw new Error(`unsafe word in a collective command: ${JSON.stringify(a)}`)
  return a
}

/** all_reduce_perf over the node's `gpus` GPUs in one process. */
export function intraArgv(gpus: number): string[] {
  return [ALL_REDUCE_PERF, ...SIZE_ARGS, '-g', String(gpus)]
}

/**
 * The image's own search paths: an ssh session does not get the image's ENV, so the worker's ranks
 * take the launcher's (Azure/aks-rdma-infiniband's MPIJob passes LD_LIBRARY_PATH the same way).
 */
const IMAGE_PATHS = ['PATH', 'LD_LIBRARY_PATH']

/** mpirun over the two pods (`gpus` ranks on each), exporting NCCL's variables and the image's paths by name. */
export function interArgv(launcherIp: string, workerIp: string, gpus: number, envNames: string[]): string[] {
  return [
    'mpirun',
    '--allow-run-as-root',
    '-np',
    String(2 * gpus),
    '-H',
    `${launcherIp}:${gpus},${workerIp}:${gpus}`,
    '--bind-to',
    'none',
    '--mca',
    'plm_rsh_args',
    `-p${SSH_PORT}`,
    ...[...IMAGE_PATHS, ...envNames].flatMap(n => ['-x', n]),
    ALL_REDUCE_PERF,
    ...SIZE_ARGS,
    '-g',
    '1'
  ]
}

function shellLine(argv: string[]): string {
  return argv.map(word).join(' ')
}

function intraPart(gpus: number): string[] {
  return [`echo '${SECTION_MARK} intra'`, `${shellLine(intraArgv(gpus))} 2>&1`, 'echo "exit=$?"']
}

/** A node of the scope that is not the pair's: its own test only. */
export function intraOnlyScript(gpus: number): string {
  return intraPart(gpus).join('\n')
}

/** The pair's worker: its own test, then sshd in the foreground for the launcher's ranks. */
export function workerScript(gpus: number): string {
  return [
    ...intraPart(gpus),
    `echo '${SECTION_MARK} sshd'`,
    'ssh-keygen -A >/dev/null 2>&1',
    `exec /usr/sbin/sshd -D -e -p ${SSH_PORT}`
  ].join('\n')
}

/**
 * The pair's launcher: its own test, then mpirun over both pods (its own address from POD_IP, the
 * downward API's status.podIP) while the worker's sshd refuses.
 */
export function launcherScript(gpus: number, workerIp: string, envNames: string[]): string {
  const argv = shellLine(interArgv('LAUNCHER_IP', workerIp, gpus, envNames)).replace(
    'LAUNCHER_IP',
    '${POD_IP}'
  )
  const tries = Array.from({ length: CONNECT_ATTEMPTS }, (_, k) => k + 1).join(' ')
  const loop = `for attempt in ${tries}; do ${argv} > ${INTER_LOG} 2>&1; c=$?; if [ $c -eq 0 ]; then exit 0; fi; if cat ${INTER_LOG} | grep -q "Connection refused"; then sleep 5; else exit $c; fi; done; exit 1`
  return [
    ...intraPart(gpus),
    `echo '${SECTION_MARK} inter'`,
    `sh -c '${loop}'`,
    'c=$?',
    `cat ${INTER_LOG}`,
    'echo "exit=$c"'
  ].join('\n')
}

/** A section of a check pod's log (src/util/log-sections.ts). */
export type Section = LogSection

/** A pod's log split at the section marks (`intra`, `sshd`, `inter`), each with its exit code. */
export function splitCollectiveLog(log: string): Map<string, Section> {
  return splitLogSections(log, SECTION_MARK)
}
