// The collective check's objects and commands: the pods (all GPUs and rdma/<name>, root with
// IPC_LOCK, /dev/shm, the ssh Secret on the pair only, the topology ConfigMap where the size
// needs it, the run's labels, pinned to their node), the ssh key pair in OpenSSH's format, the
// scripts (each part after its mark, mpirun over both pods, unsafe words refused), NCCL's
// environment per GPUDirect mode, and the pass marks per VM size with their sources.
import { beforeAll, describe, expect, it } from '@jest/globals'
import { createPublicKey } from 'node:crypto'
import { ncclEnv } from '../../../src/collective/nccl-env.js'
import { collectivePassMarks } from '../../../src/collective/pass-marks.js'
import { collectivePlan } from '../../../src/collective/plan.js'
import { collectivePod, sshKeyPair, sshSecret, topologyConfigMap } from '../../../src/collective/pods.js'
import {
  interArgv,
  launcherScript,
  splitCollectiveLog,
  workerScript
} from '../../../src/collective/script.js'
import { topologyFor } from '../../../src/collective/topology.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

let s: Settings
beforeAll(() => {
  s = readSettings(reader({ ...VALID_APPLY, mode: 'verify', 'collective-check': 'nccl' }), {}).settings
})

describe('the pods', () => {
  it('the launcher: every GPU and rdma/<name>, root with IPC_LOCK, the Secret and topology mounted, pinned to its node', () => {
    const env = ncclEnv({ topologyFile: 'ndv5-topo.xml' })
    const pod = collectivePod({
      settings: s,
      role: 'launcher',
      index: 0,
      node: 'n0',
      gpus: 8,
      env,
      workerIp: '10.244.1.7',
      topology: true
    })
    const c = pod.spec.containers[0]
    expect(c.resources.requests).toEqual({ 'rdma/hca_shared_devices_a': '1', 'nvidia.com/gpu': '8' })
    expect(c.resources.limits).toEqual(c.resources.requests)
    expect(c.securityContext).toEqual({ capabilities: { add: ['IPC_LOCK'] } })
    expect(c.volumeMounts.map((m: { mountPath: string }) => m.mountPath)).toEqual([
      '/dev/shm',
      '/root/.ssh',
      '/opt/aks-rdma-action/topology'
    ])
    expect(pod.spec.volumes.find((v: { name: string }) => v.name === 'ssh').secret.defaultMode).toBe(0o400)
    expect(
      pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values
    ).toEqual(['n0'])
    expect(pod.metadata.labels!['aks-rdma-action/role']).toBe('launcher')
    expect(pod.metadata.labels!['app.kubernetes.io/component']).toBe('nccl-collective')
    expect(c.env).toContainEqual({
      name: 'NCCL_TOPO_FILE',
      value: '/opt/aks-rdma-action/topology/ndv5-topo.xml'
    })
    expect(c.env).toContainEqual({ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } })
    expect(c.env).toContainEqual({ name: 'OMPI_ALLOW_RUN_AS_ROOT', value: '1' })
    expect(c.args[0]).toContain('-H ${POD_IP}:8,10.244.1.7:8')
    expect(pod.spec.restartPolicy).toBe('Never')
  })

  it('a node outside the pair gets no ssh key; a launcher needs its worker', () => {
    const pod = collectivePod({
      settings: s,
      role: 'node',
      index: 2,
      node: 'n2',
      gpus: 8,
      env: {},
      topology: false
    })
    expect(pod.spec.volumes.map((v: { name: string }) => v.name)).toEqual(['dshm'])
    expect(() =>
      collectivePod({
        settings: s,
        role: 'launcher',
        index: 0,
        node: 'n0',
        gpus: 8,
        env: {},
        topology: false
      })
    ).toThrow('worker pod IP')
  })

  it('the ssh key pair: an OpenSSH ecdsa-sha2-nistp256 line for the private key, in the Secret', () => {
    const k = sshKeyPair('test')
    const [type, blob, comment] = k.publicLine.split(' ')
    expect([type, comment]).toEqual(['ecdsa-sha2-nistp256', 'test'])
    const raw = Buffer.from(blob, 'base64')
    const point = raw.subarray(raw.length - 65)
    const jwk = createPublicKey(k.privatePem).export({ format: 'jwk' })
    expect(point.subarray(1, 33).toString('base64url')).toBe(jwk.x)
    expect(k.privatePem).toMatch(/^-----BEGIN EC PRIVATE KEY-----/)
    const secret = sshSecret(s, k)
    expect(Buffer.from(secret.data.authorized_keys, 'base64').toString()).toBe(`${k.publicLine}\n`)
    expect(Object.keys(secret.data).sort()).toEqual(['authorized_keys', 'id_ecdsa', 'id_ecdsa.pub'])
  })

  it('the topology ConfigMap carries the ND v5 file for H100 and H200, the ND v4 one for A100, none for GB200', () => {
    expect(topologyFor('Standard_ND96isr_H100_v5')?.name).toBe('ndv5-topo.xml')
    expect(topologyFor('Standard_ND96isrf_H200_v5')?.name).toBe('ndv5-topo.xml')
    expect(topologyFor('Standard_ND96amsr_A100_v4')?.name).toBe('ndv4-topo.xml')
    expect(topologyFor('Standard_ND128isr_NDR_GB200_v6')).toBeNull()
    const cm = topologyConfigMap(s, topologyFor('Standard_ND96isr_H100_v5')!)
    expect(cm.data['ndv5-topo.xml']).toMatch(/^<system version="1">/)
  })
})

describe('the scripts', () => {
  it('the worker tests its node, then serves ssh; the launcher tests its node, then runs mpirun over both pods', () => {
    expect(workerScript(8)).toMatch(
      /intra'\n\/opt\/nccl_tests\/build\/all_reduce_perf -b 1M -e 16G -f 4 -g 8 2>&1\necho "exit=\$\?"\n.*sshd'\nssh-keygen -A.*\nexec \/usr\/sbin\/sshd -D -e -p 2222$/s
    )
    const argv = interArgv('a', 'b', 4, ['NCCL_DEBUG'])
    expect(argv.slice(0, 6)).toEqual(['mpirun', '--allow-run-as-root', '-np', '8', '-H', 'a:4,b:4'])
    expect(argv.join(' ')).toContain('-x PATH -x LD_LIBRARY_PATH -x NCCL_DEBUG')
    expect(argv.slice(-2)).toEqual(['-g', '1'])
    expect(() => launcherScript(8, '10.0.0.1; rm -rf /', [])).toThrow('unsafe word')
  })

  it('splits a log into its sections with their exit codes', () => {
    const log =
      'noise\n@@@ aks-rdma-action nccl intra\nrow\nexit=0\n@@@ aks-rdma-action nccl inter\nssh: refused\nexit=1\n'
    const m = splitCollectiveLog(log)
    expect(m.get('intra')).toEqual({ text: 'row', exitCode: 0 })
    expect(m.get('inter')).toEqual({ text: 'ssh: refused\n', exitCode: 1 })
  })
})

describe('NCCL environment and pass marks', () => {
  it('dmabuf enables NCCL_DMABUF_ENABLE; peermem leaves NCCL its default', () => {
    expect(ncclEnv({ gpudirect: 'dmabuf' }).NCCL_DMABUF_ENABLE).toBe('1')
    expect(ncclEnv({ gpudirect: 'peermem' })).not.toHaveProperty('NCCL_DMABUF_ENABLE')
    expect(ncclEnv()).toEqual({
      NCCL_DEBUG: 'INFO',
      NCCL_DEBUG_SUBSYS: 'INIT,NET',
      NCCL_IB_DISABLE: '0',
      CUDA_DEVICE_ORDER: 'PCI_BUS_ID'
    })
  })

  it('per size: Azure’s published marks, derived ones said so, the override', () => {
    const h100 = collectivePassMarks('Standard_ND96isr_H100_v5')
    expect(h100.intra?.gbps).toBe(460)
    expect(h100.intra?.source).toContain('nd96isr_h100_v5.conf')
    expect(h100.inter.gbps).toBe(360)
    expect(h100.inter.source).toMatch(/^derived: /)
    const a100 = collectivePassMarks('Standard_ND96asr_v4')
    expect([a100.intra?.gbps, a100.inter.gbps]).toEqual([228, 180])
    expect(a100.inter.source).toContain('tests/expected-output.md')
    const gb200 = collectivePassMarks('Standard_ND128isr_NDR_GB200_v6')
    expect([gb200.intra?.gbps, gb200.inter.gbps]).toEqual([432, 180])
    expect(collectivePassMarks('Standard_ND96isr_H100_v5', 300).inter).toEqual({
      gbps: 300,
      source: 'collective-min-busbw'
    })
  })

  it('the plan names the commands and both marks', () => {
    const p = collectivePlan(s)
    expect(p.enabled).toBe(true)
    expect(p.intra).toContain('8')
    expect(p.passRule).toContain('460 GB/s')
    expect(p.passRule).toContain('360 GB/s')
    expect(p.objects[1]).toContain('ndv5-topo.xml')
  })
})
