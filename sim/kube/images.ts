// What the simulated registry holds for an image and what a node's container runtime makes of it
// (containerd and runc, as they behave):
// - a multi-platform index without the node's platform fails the pull: containerd's
//   images.Manifest finds no matching manifest, "no match for platform in manifest <digest>: not
//   found" (containerd/containerd@320e6444:core/images/image.go), which the kubelet reports as
//   ErrImagePull, then ImagePullBackOff;
// - a single manifest is pulled whatever its platform (that same function checks the platform only
//   of manifests reached through an index), and runc's init then fails to execve the command:
//   "exec /usr/bin/sh: exec format error" on the container's stderr, exit 255, after the container
//   started (opencontainers/runc@v1.5.1: internal/linux/linux.go, libcontainer/init_linux.go,
//   libcontainer/standard_init_linux.go), so the kubelet restarts it: CrashLoopBackOff.
// Which images are which: the scenario's kube.images first; the DOCA driver's per-platform tags
// (`…-ubuntu22.04-arm64`) hold their suffix's platform; the action's default images as
// src/settings/images.ts records them (the benchmark image as a single amd64 manifest); any other
// image is taken to be an index for amd64 and arm64.
import { DEFAULT_IMAGE_ARCHES } from '../../src/settings/images.js'
import type { CpuArch } from '../../src/settings/vm-sizes.js'
import type { ImageSpec, Scenario } from '../scenario.js'

export interface ImagePlatforms {
  manifest: 'index' | 'single'
  arches: readonly CpuArch[]
}

const BOTH: readonly CpuArch[] = ['amd64', 'arm64']

/** The registry's manifest for `image`. */
export function imagePlatforms(scenario: Pick<Scenario, 'kube'>, image: string): ImagePlatforms {
  const listed = (scenario.kube.images ?? []).find((s: ImageSpec) => image.startsWith(s.image))
  if (listed) return { manifest: listed.manifest, arches: listed.arches }
  const doca = /\/doca-driver:.*-(amd64|arm64)$/.exec(image)
  if (doca) return { manifest: 'single', arches: [doca[1] as CpuArch] }
  const known = DEFAULT_IMAGE_ARCHES[image]
  if (known) return { manifest: known.length > 1 ? 'index' : 'single', arches: known }
  return { manifest: 'index', arches: BOTH }
}

/** The reference as containerd names it (docker.io/library/ for a bare name). */
export function fullReference(image: string): string {
  const first = image.split('/')[0]
  if (!image.includes('/')) return `docker.io/library/${image}`
  return first.includes('.') || first.includes(':') || first === 'localhost' ? image : `docker.io/${image}`
}

/** containerd's pull error for an index without the node's platform, or undefined when it pulls. */
export function pullPlatformError(p: ImagePlatforms, image: string, arch: CpuArch): string | undefined {
  if (p.manifest !== 'index' || p.arches.includes(arch)) return undefined
  const ref = fullReference(image)
  const digest = /@(sha256:[0-9a-f]{64})$/.exec(image)?.[1] ?? `sha256:${'0'.repeat(64)}`
  return `failed to pull and unpack image "${ref}": no match for platform in manifest ${digest}: not found`
}

/**
 * runc's error when the container's command is built for another CPU (a single-platform image of
 * another architecture), or undefined. The command is resolved as exec.LookPath does on an Ubuntu
 * image's PATH (`sh` → /usr/bin/sh).
 */
export function execFormatError(p: ImagePlatforms, arch: CpuArch, spec: any): string | undefined {
  if (p.manifest !== 'single' || p.arches.includes(arch)) return undefined
  const cmd = String(spec?.command?.[0] ?? spec?.args?.[0] ?? '/entrypoint.sh')
  return `exec ${cmd.startsWith('/') ? cmd : `/usr/bin/${cmd}`}: exec format error`
}
