// What the operator-managed pods do on their node: the DOCA/OFED driver container (takes the
// `mofed` delay, then OFED is loaded; `ofedFails` nodes crash-loop with a build error), the RDMA
// shared device plugin (reads `rdma-devices`/config.json, advertises rdma/<name> for matching
// devices once OFED is up), and the GPU Operator operands: driver (+ nvidia-peermem sidecar,
// with the useHostMofed failure), container toolkit, device plugin (nvidia.com/gpu), validator.
import type { NodeHardware, RdmaNic } from '../hardware.js'
import { kernelModulesOf } from '../hardware.js'
import type { BehaviourEnv, BehaviourFactory, ContainerView } from './behaviour.js'
import { createIfAbsent, ownerRef, randomSuffix, TK, typeFromKey } from './context.js'
import { endpointStopped, registerEndpoint, setExtendedResource } from './node-resources.js'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** The DOCA driver container's timestamp prefix: [30-Nov-26_12:08:49]. */
function stamp(env: BehaviourEnv): string {
  const d = new Date(env.ctx.wallNow())
  const p = (n: number) => String(n).padStart(2, '0')
  return `[${p(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${String(d.getUTCFullYear()).slice(2)}_${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}]`
}

function goLog(env: BehaviourEnv): string {
  const d = new Date(env.ctx.wallNow())
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`
}

function update(env: BehaviourEnv, fn: (hw: NodeHardware) => void): void {
  env.ctx.hardware.update(env.nodeName, fn)
}

// ---- DOCA / MOFED driver ----

/** The file the driver container writes once the driver is loaded (in /run: gone after a reboot). */
export const OFED_READY_FILE = '/run/mellanox/drivers/.driver-ready'
/**
 * Where the driver container publishes its kernel headers for the GPU driver's nvidia-peermem
 * build: `mount --rbind /usr/src /run/mellanox/drivers/usr/src` through its Bidirectional volume, a
 * host mount (Mellanox/doca-driver-build@network-operator-v26.4.1:entrypoint.sh, mount_rootfs;
 * unmounted by unmount_rootfs on termination).
 */
export const OFED_HEADERS_MOUNT = '/run/mellanox/drivers/usr/src'
/** A file of those headers, as the GPU driver container reads it. */
export const OFED_SYMVERS_FILE = `${OFED_HEADERS_MOUNT}/ofa_kernel/default/Module.symvers`

export const mofedBehaviour: BehaviourFactory = env => {
  const c0 = (env.pod.spec.containers ?? []).find(
    (c: any) => c.name === 'mofed-container' || /\/doca-driver:|\/mofed:/.test(c.image ?? '')
  )
  if (!c0) return undefined
  const version = String(c0.image).split(':').pop() ?? ''
  const log = (t: string) =>
    env.log(
      'mofed-container',
      t
        .split('\n')
        .map(l => `${stamp(env)} ${l}`)
        .join('\n')
    )
  return {
    kind: 'mofed',
    delayClass: 'mofed',
    onStart(c) {
      if (c.name !== c0.name) return
      const hw = env.hw()
      log(
        [
          `DOCA driver container exec start`,
          `Container full version: ${version}`,
          `Drivers inventory path is set: /mnt/drivers-inventory`,
          `Running on kernel ${hw?.kernel} (${hw?.osImage})`,
          `Checking if a precompiled driver exists for kernel ${hw?.kernel}`,
          `No precompiled driver found for kernel ${hw?.kernel}, building from sources`,
          `Installing linux-headers-${hw?.kernel}`,
          `Building driver packages for kernel ${hw?.kernel} (this takes several minutes)`
        ].join('\n')
      )
    },
    crashLog(c) {
      const hw = env.hw()
      if (c.name !== c0.name || !hw?.ofedFails) return undefined
      return [
        `${stamp(env)} Building and installing DOCA-OFED kernel modules for ${hw.kernel}`,
        `make[2]: *** [scripts/Makefile.build:297: /tmp/mlnx-ofed-kernel/obj/default/drivers/infiniband/core/cm.o] Error 1`,
        `make[1]: *** [Makefile:1910: /tmp/mlnx-ofed-kernel/obj/default] Error 2`,
        `${stamp(env)} Error: failed to build mlnx-ofed-kernel-dkms for kernel ${hw.kernel}`,
        `${stamp(env)} Driver build failed, the container will exit with an error`
      ].join('\n')
    },
    onReady(c) {
      if (c.name !== c0.name) return
      // load_driver: mount_rootfs, then set_driver_readiness 1 (`touch` of a plain file in the
      // host's directory, which every container mounting it sees, propagation or not).
      update(env, hw => {
        hw.mounts = [
          ...hw.mounts.filter(m => m.path !== OFED_HEADERS_MOUNT),
          { path: OFED_HEADERS_MOUNT, at: env.ctx.clock.now() }
        ]
        hw.files[OFED_SYMVERS_FILE] = ''
        hw.ofedReady = true
        hw.files[OFED_READY_FILE] = ''
        hw.timeline.ofedReadyAt = hw.timeline.ofedReadyAt ?? env.ctx.clock.now()
      })
      log(
        [
          `Unloading storage modules...`,
          `Restarting openibd: Unloading HCA driver:  [  OK  ]`,
          `Loading HCA driver and Access Layer:  [  OK  ]`,
          `Loaded kernel modules: mlx5_core mlx5_ib ib_core ib_uverbs (${version})`,
          `Setting driver ready state: /run/mellanox/drivers/.driver-ready`,
          `DOCA driver container is ready, waiting for termination signal`
        ].join('\n')
      )
    },
    onStop() {
      // Terminating the container removes its ready file and unmounts its sources; the DOCA driver
      // stays loaded (RESTORE_DRIVER_ON_POD_TERMINATION false), which is not modelled: the node
      // counts as without it, and nvidia_peermem, which depends on it, as unloaded.
      update(env, hw => {
        hw.ofedReady = false
        delete hw.files[OFED_READY_FILE]
        hw.mounts = hw.mounts.filter(m => m.path !== OFED_HEADERS_MOUNT)
        delete hw.files[OFED_SYMVERS_FILE]
        hw.nvidiaPeermemLoaded = false
      })
    }
  }
}

// ---- RDMA shared device plugin ----

interface DpSelectors {
  vendors?: string[]
  deviceIDs?: string[]
  drivers?: string[]
  linkTypes?: string[]
  ifNames?: string[]
}
interface DpResource {
  resourceName: string
  resourcePrefix?: string
  rdmaHcaMax: number
  selectors?: DpSelectors
  devices?: string[]
}

/** The devices one plugin resource selects: OR within a selector, AND across selectors; network-class (02xx) only. */
export function selectDevices(nics: RdmaNic[], r: DpResource): RdmaNic[] {
  const linkType = (n: RdmaNic) => (n.linkLayer === 'InfiniBand' ? 'infiniband' : 'ether')
  const sel = r.selectors ?? {}
  return nics.filter(n => {
    if (!n.pciClass.startsWith('02')) return false
    if (r.devices?.length && !r.devices.includes(n.netdev)) return false
    const test = (vals: string[] | undefined, v: string) =>
      !vals || vals.length === 0 || vals.map(x => x.toLowerCase()).includes(v.toLowerCase())
    return (
      test(sel.vendors, n.vendor) &&
      test(sel.deviceIDs, n.deviceId) &&
      test(sel.drivers, n.driver) &&
      test(sel.linkTypes, linkType(n)) &&
      test(sel.ifNames, n.netdev)
    )
  })
}

function readDpConfig(env: BehaviourEnv): { config?: { configList: DpResource[] }; error?: string } {
  const vol = (env.pod.spec.volumes ?? []).find((v: any) => v.configMap)
  const cmName = vol?.configMap?.name ?? 'rdma-devices'
  const ns = env.pod.metadata.namespace ?? 'default'
  const cm = env.ctx.cache.get(TK.configmaps, ns, cmName)
  const text = cm?.data?.['config.json']
  if (text === undefined)
    return { error: 'open /k8s-rdma-shared-dev-plugin/config.json: no such file or directory' }
  try {
    const parsed = JSON.parse(text)
    if (!Array.isArray(parsed.configList)) return { error: 'no resources configuration found' }
    return { config: parsed }
  } catch (e) {
    return { error: `error unmarshalling config file: ${(e as Error).message}` }
  }
}

/** lspci names of the Mellanox VFs (pci.ids). */
const PCI_NAMES: Record<string, string> = {
  '101a': 'MT28800 Family [ConnectX-5 Ex Virtual Function]',
  '101c': 'MT28908 Family [ConnectX-6 Virtual Function]',
  '101e': 'ConnectX Family mlx5Gen Virtual Function'
}

export const rdmaSharedDpBehaviour: BehaviourFactory = env => {
  const c0 = (env.pod.spec.containers ?? []).find((c: any) =>
    /k8s-rdma-shared-dev-plugin/.test(c.image ?? '')
  )
  if (!c0) return undefined
  const log = (t: string) =>
    env.log(
      c0.name,
      t
        .split('\n')
        .map(l => `${goLog(env)} ${l}`)
        .join('\n')
    )
  const plugin = env.pod.metadata.uid ?? env.pod.metadata.name
  let registered = false
  /** The resources this pod registered (its config when it registered). */
  const served: string[] = []
  // The plugin registers only once its container has started (after its init containers, if any).
  let running = false
  const register = (): void => {
    const hw = env.hw()
    if (registered || !running || !hw || !hw.ofedReady || !env.alive()) return
    const { config } = readDpConfig(env)
    if (!config) return
    registered = true
    const lines: string[] = ['Discovering host devices']
    for (const n of hw.nics) {
      lines.push(
        `DiscoverHostDevices(): device found: ${n.pciAddress}\t02          \t15b3\tMellanox Technolo...\t${PCI_NAMES[n.deviceId] ?? 'Device ' + n.deviceId}`
      )
    }
    lines.push('Initializing resource servers')
    for (const r of config.configList) {
      const name = `${r.resourcePrefix ?? 'rdma'}/${r.resourceName}`
      const matched = selectDevices(hw.nics, r)
      lines.push(
        `Resource: &{ResourceName:${r.resourceName} ResourcePrefix:${r.resourcePrefix ?? ''} RdmaHcaMax:${r.rdmaHcaMax} Devices:[] Selectors:{Vendors:[${(r.selectors?.vendors ?? []).join(' ')}] DeviceIDs:[${(r.selectors?.deviceIDs ?? []).join(' ')}] Drivers:[${(r.selectors?.drivers ?? []).join(' ')}] IfNames:[${(r.selectors?.ifNames ?? []).join(' ')}] LinkTypes:[${(r.selectors?.linkTypes ?? []).join(' ')}]}}`
      )
      for (const n of matched)
        lines.push(
          `${r.resourceName}: matched device ${n.pciAddress} (${n.name}, netdev ${n.netdev}, link type ${n.linkLayer === 'InfiniBand' ? 'infiniband' : 'ether'})`
        )
      if (matched.length === 0)
        lines.push(`Warning: no devices in device pool, creating empty resource server for ${r.resourceName}`)
      update(env, h => {
        h.rdmaMatchedDevices[name] = matched.map(n => n.name)
        h.timeline.rdmaAdvertisedAt = h.timeline.rdmaAdvertisedAt ?? env.ctx.clock.now()
      })
      registerEndpoint(env.ctx, env.nodeName, name, plugin)
      served.push(name)
      setExtendedResource(env.ctx, env.nodeName, name, matched.length > 0 ? r.rdmaHcaMax : 0)
    }
    lines.push('Starting all servers...')
    for (const r of config.configList) {
      lines.push(
        `starting ${r.resourcePrefix ?? 'rdma'}/${r.resourceName} device plugin endpoint at: ${r.resourceName}.sock`
      )
      lines.push(`${r.resourcePrefix ?? 'rdma'}/${r.resourceName} device plugin endpoint started serving`)
    }
    lines.push('All servers started.', 'Listening for term signals')
    log(lines.join('\n'))
  }
  return {
    kind: 'rdma-shared-dp',
    crashLog() {
      const { error } = readDpConfig(env)
      return error
        ? `${goLog(env)} Starting K8s RDMA Shared Device Plugin version= v1.5.3\n${goLog(env)} resource manager reading configs\n${goLog(env)} Error: error reading configs: ${error}`
        : undefined
    },
    onStart() {
      running = true
      const { config } = readDpConfig(env)
      update(env, h => {
        h.timeline.devicePluginStartedAt = h.timeline.devicePluginStartedAt ?? env.ctx.clock.now()
      })
      log(
        [
          'Starting K8s RDMA Shared Device Plugin version= v1.5.3',
          'resource manager reading configs',
          'Reading /k8s-rdma-shared-dev-plugin/config.json',
          'Using Kubelet Plugin Registry Mode',
          `loaded config: ${JSON.stringify(config?.configList ?? [])}`,
          `periodic update interval: +${(config as any)?.periodicUpdateInterval ?? 60}`
        ].join('\n')
      )
      if (!env.hw()?.ofedReady)
        log('Waiting for RDMA devices: mlx5 driver not ready (no /run/mellanox/drivers/.driver-ready)')
    },
    onReady: () => register(),
    onNodeChange: () => register(),
    onStop() {
      for (const name of served) endpointStopped(env.ctx, env.nodeName, name, plugin)
    }
  }
}

// ---- GPU Operator operands ----

const PEERMEM_CTR = 'nvidia-peermem-ctr'

export const nvidiaDriverBehaviour: BehaviourFactory = env => {
  const names = (env.pod.spec.containers ?? []).map((c: any) => c.name)
  if (!names.includes('nvidia-driver-ctr')) return undefined
  const peermem = (env.pod.spec.containers ?? []).find((c: any) => c.name === PEERMEM_CTR)
  const useHostMofed = (peermem?.env ?? []).some(
    (e: any) => e.name === 'USE_HOST_MOFED' && String(e.value) === 'true'
  )
  const driverVersion =
    String((env.pod.spec.containers ?? [])[0]?.image ?? '')
      .split(':')
      .pop()
      ?.split('-')[0] ?? '580.126.20'
  // The peermem sidecar runs `nvidia-driver reload_nvidia_peermem` (NVIDIA/gpu-operator's driver
  // DaemonSet asset): it waits, then loads the module once. Without USE_HOST_MOFED it waits for the
  // DOCA driver's /run/mellanox/drivers/.driver-ready and the GPU driver; with USE_HOST_MOFED=true
  // only for `lsmod | grep mlx5_core` — the inbox driver, loaded on every Azure VM from boot — and
  // the GPU driver, so it does not wait for the Network Operator's driver at all (gpu-operator
  // controllers/object_controls.go). The module was then built against the host's /usr/src, which
  // holds no OFED sources, so it has no peer-memory client to register with either ib_core: modprobe
  // fails with Invalid argument (ai-dynamo/dynamo PR #14506), the script exits 1 and the kubelet
  // restarts it with back-off (CrashLoopBackOff).
  const moduleType = String(
    ((env.pod.spec.containers ?? [])[0]?.env ?? []).find((e: any) => e.name === 'KERNEL_MODULE_TYPE')
      ?.value ?? 'auto'
  )
  let peermemRunning = false
  let exitPeermem: ((code: number) => void) | undefined
  const peermemStep = (): void => {
    const hw = env.hw()
    if (!hw || !peermemRunning || !env.alive()) return
    const waiting = useHostMofed ? !hw.gpuDriverReady : !(hw.ofedReady && hw.gpuDriverReady)
    if (waiting || hw.nvidiaPeermemLoaded) return
    // The scenario's nodes.peermemFails: the module cannot be inserted on this node either.
    if (useHostMofed || hw.peermemFails) {
      peermemRunning = false
      env.log(PEERMEM_CTR, "modprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument")
      env.log(PEERMEM_CTR, 'failed to load nvidia-peermem module')
      exitPeermem?.(1)
      return
    }
    update(env, h => {
      h.nvidiaPeermemLoaded = true
      h.timeline.peermemReadyAt = h.timeline.peermemReadyAt ?? env.ctx.clock.now()
    })
    env.log(PEERMEM_CTR, 'successfully loaded nvidia-peermem module, now waiting for signal')
  }
  return {
    kind: 'nvidia-driver',
    delayClass: 'gpuDriver',
    attachExit(c, exit) {
      if (c.name === PEERMEM_CTR) exitPeermem = exit
    },
    onInitComplete(c) {
      if (c.name === 'k8s-driver-manager') {
        env.log(
          c.name,
          [
            "Getting current value of the 'nvidia.com/gpu.deploy.operator-validator' node label",
            "Current value of 'nvidia.com/gpu.deploy.operator-validator=true'",
            'Uncordoning node ' + env.nodeName + '...',
            'node/' + env.nodeName + ' already uncordoned',
            'Unloading nouveau driver...',
            'Successfully unloaded nouveau driver'
          ].join('\n')
        )
      }
    },
    onStart(c) {
      const hw = env.hw()
      if (c.name === 'nvidia-driver-ctr') {
        env.log(
          c.name,
          [
            `DRIVER_ARCH is ${hw?.spec.arch === 'arm64' ? 'aarch64' : 'x86_64'}`,
            `Creating directory NVIDIA-Linux-${hw?.spec.arch === 'arm64' ? 'aarch64' : 'x86_64'}-${driverVersion}`,
            `Verifying archive integrity... OK`,
            `Uncompressing NVIDIA Accelerated Graphics Driver for Linux-x86_64 ${driverVersion}`,
            '',
            `========== NVIDIA Software Installer ==========`,
            '',
            `Starting installation of NVIDIA driver version ${driverVersion} for Linux kernel version ${hw?.kernel}`,
            '',
            'Stopping NVIDIA persistence daemon...',
            'Unloading NVIDIA driver kernel modules...',
            'Installing NVIDIA driver kernel modules...'
          ].join('\n')
        )
      } else if (c.name === PEERMEM_CTR) {
        peermemRunning = true
        const hw = env.hw()
        if (useHostMofed ? !hw?.gpuDriverReady : !(hw?.ofedReady && hw.gpuDriverReady))
          env.log(c.name, 'waiting for mellanox ofed and nvidia drivers to be installed')
        // The script's first check comes a moment after the start.
        env.ctx.timers.after(1000, peermemStep)
      }
    },
    // The startup probe, probe_nvidia_peermem: with mlx5_core loaded (always: the inbox driver),
    // the container is Ready only once the module is.
    readyGate: c => c.name !== PEERMEM_CTR || !!env.hw()?.nvidiaPeermemLoaded,
    readyDelay(c) {
      return c.name === PEERMEM_CTR ? 1000 : undefined
    },
    probeFailure(c) {
      return c.name === PEERMEM_CTR ? 'nvidia-peermem module is not loaded' : undefined
    },
    onReady(c) {
      if (c.name === 'nvidia-driver-ctr') {
        update(env, h => {
          h.gpuDriverReady = true
          h.gpuKernelModules = kernelModulesOf(moduleType, driverVersion, h)
          h.timeline.gpuDriverReadyAt = h.timeline.gpuDriverReadyAt ?? env.ctx.clock.now()
        })
        env.log(
          c.name,
          [
            'Loading ipmi and i2c_core kernel modules...',
            'Loading NVIDIA driver kernel modules...',
            '+ modprobe nvidia',
            '+ modprobe nvidia-uvm',
            '+ modprobe nvidia-modeset',
            'Starting NVIDIA persistence daemon...',
            'Mounting NVIDIA driver rootfs...',
            'Done, now waiting for signal'
          ].join('\n')
        )
      }
    },
    // What the sidecar waits for arrived; or an OFED reload dropped the module (its liveness probe
    // then restarts it, and it loads the module again).
    onNodeChange: peermemStep,
    onStop() {
      update(env, h => {
        h.gpuDriverReady = false
        h.gpuKernelModules = null
        h.nvidiaPeermemLoaded = false
      })
    }
  }
}

export const nvidiaDevicePluginBehaviour: BehaviourFactory = env => {
  const c0 = (env.pod.spec.containers ?? []).find(
    (c: any) => c.name === 'nvidia-device-plugin' || /\/k8s-device-plugin:/.test(c.image ?? '')
  )
  if (!c0) return undefined
  const plugin = env.pod.metadata.uid ?? env.pod.metadata.name
  let ready = false
  const advertise = (): void => {
    const hw = env.hw()
    if (!hw || !ready || !env.alive()) return
    registerEndpoint(env.ctx, env.nodeName, 'nvidia.com/gpu', plugin)
    const want = hw.gpuDriverReady ? hw.spec.gpus : 0
    if (hw.extendedResources['nvidia.com/gpu'] === String(want)) return
    setExtendedResource(env.ctx, env.nodeName, 'nvidia.com/gpu', want)
    if (want > 0) {
      update(env, h => {
        h.timeline.gpuAdvertisedAt = h.timeline.gpuAdvertisedAt ?? env.ctx.clock.now()
      })
    }
  }
  return {
    kind: 'nvidia-device-plugin',
    readyGate: () => !!env.hw()?.gpuDriverReady,
    onStart(c) {
      env.log(
        c.name,
        [
          `${goLog(env)} Starting FS watcher.`,
          `${goLog(env)} Starting OS watcher.`,
          `${goLog(env)} Starting Plugins.`,
          `${goLog(env)} Loading configuration.`
        ].join('\n')
      )
    },
    onReady(c) {
      ready = true
      env.log(
        c.name,
        [
          `${goLog(env)} Retrieving plugins.`,
          `${goLog(env)} Starting GRPC server for 'nvidia.com/gpu'`,
          `${goLog(env)} Starting to serve 'nvidia.com/gpu' on /var/lib/kubelet/device-plugins/nvidia-gpu.sock`,
          `${goLog(env)} Registered device plugin for 'nvidia.com/gpu' with Kubelet`
        ].join('\n')
      )
      advertise()
    },
    onNodeChange: advertise,
    onStop() {
      if (ready) endpointStopped(env.ctx, env.nodeName, 'nvidia.com/gpu', plugin)
    }
  }
}

/** Toolkit, validator and other GPU operands: Ready once the driver is. */
export const nvidiaOperandBehaviour: BehaviourFactory = env => {
  const names: string[] = (env.pod.spec.containers ?? []).map((c: any) => c.name)
  const isOperand = names.some(n =>
    [
      'nvidia-container-toolkit-ctr',
      'nvidia-operator-validator',
      'nvidia-dcgm-exporter',
      'gpu-feature-discovery'
    ].includes(n)
  )
  if (!isOperand) return undefined
  const validator = names.includes('nvidia-operator-validator')
  return {
    kind: 'nvidia-operand',
    initGate(c: ContainerView) {
      const hw = env.hw()
      if (!hw) return false
      if (c.name === 'driver-validation' || c.name === 'toolkit-validation' || c.name === 'cuda-validation')
        return hw.gpuDriverReady
      if (c.name === 'plugin-validation') return Number(hw.extendedResources['nvidia.com/gpu'] ?? 0) > 0
      return true
    },
    onInitComplete(c) {
      const msg: Record<string, string> = {
        'driver-validation':
          'running command chroot with args [/run/nvidia/driver nvidia-smi]\nDriver validation is successful',
        'toolkit-validation': 'Toolkit validation is successful',
        'cuda-validation': 'cuda workload validation is successful',
        'plugin-validation': 'device-plugin workload validation is successful'
      }
      if (msg[c.name]) env.log(c.name, msg[c.name])
      if (c.name === 'cuda-validation') {
        const podT = typeFromKey(env.ctx, TK.pods)
        if (podT) {
          createIfAbsent(env.ctx, podT, {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {
              name: `nvidia-cuda-validator-${randomSuffix()}`,
              namespace: env.pod.metadata.namespace,
              labels: { app: 'nvidia-cuda-validator' },
              ownerReferences: [ownerRef(env.pod)]
            },
            spec: {
              nodeName: env.nodeName,
              restartPolicy: 'Never',
              tolerations: env.pod.spec.tolerations,
              containers: [
                {
                  name: 'nvidia-cuda-validator',
                  image: c.image,
                  command: ['sh', '-c'],
                  args: ['echo cuda workload validation is successful']
                }
              ]
            }
          })
        }
      }
    },
    readyGate: () => !!env.hw()?.gpuDriverReady,
    onReady(c) {
      if (validator && c.name === 'nvidia-operator-validator')
        env.log(c.name, 'all validations are successful')
    }
  }
}

export const OPERAND_BEHAVIOURS: BehaviourFactory[] = [
  mofedBehaviour,
  rdmaSharedDpBehaviour,
  nvidiaDriverBehaviour,
  nvidiaDevicePluginBehaviour,
  nvidiaOperandBehaviour
]
