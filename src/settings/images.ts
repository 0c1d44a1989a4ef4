// The container images the action runs on the RDMA nodes, pinned by digest, and the CPU architectures
// each default is published for. Each pin's source: docs/IMAGES.md.
import type { CpuArch } from './vm-sizes.js'

/**
 * busybox 1.37.0 (multi-arch index: amd64 and arm64 among its 17 platforms) as docker-library's
 * repo-info publishes it (repos/busybox/remote/1.37.0.md). Runs ib-node-config (privileged,
 * hostPID, restarts kubelet), the device plugin's and ib-node-config's wait init containers, and
 * the node probe (it reads only sysfs and /proc).
 */
export const BUSYBOX_IMAGE =
  'docker.io/library/busybox:1.37.0@sha256:9db7b59979c38555a39def84a31fb98b5296952f9e3afd4f6f11f05b07adfab0'

/**
 * The RDMA shared device plugin NVIDIA ships with Network Operator v26.4.1 (hack/release.yaml:
 * network-operator-v26.4.1), at the digest NVIDIA's OpenShift bundle of that tag lists
 * (relatedImages `rdma-shared-device-plugin`). The upstream semver image (ghcr.io/mellanox/
 * k8s-rdma-shared-dev-plugin:v1.5.3, 2025-03) has no published digest.
 */
export const RDMA_DEVICE_PLUGIN_IMAGE =
  'nvcr.io/nvidia/mellanox/k8s-rdma-shared-dev-plugin:network-operator-v26.4.1@sha256:464970d3197fe982b779c48cce74d90f7563ede5daef834bf169db39ee4541c7'

/** The plugin binary in both the upstream and NVIDIA's image (NVIDIA's manifest sets it as the command). */
export const RDMA_DEVICE_PLUGIN_COMMAND = ['/bin/k8s-rdma-shared-dp']

/**
 * NVIDIA Dynamo's vLLM runtime image the transport check runs: Dynamo's current release, v1.6.2
 * (GitHub's latest release, 2026-11-05, a patch of v1.6.0 with its backend pins: vLLM 0.31.0, NIXL
 * 1.4.1, UCX 1.21.x, CUDA 13.0, x86_64 and ARM64 — Dynamo's compatibility page), with UCX's tools
 * in /usr/local/ucx/bin on PATH, run as the non-root user `dynamo` (UID 1000). Pinned by tag:
 * NVIDIA publishes no digest for it in the sources available (docs/IMAGES.md). It runs
 * unprivileged, only in the check's two pods.
 */
export const DYNAMO_RUNTIME_IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2'

/**
 * The benchmark image NVIDIA's GPUDirect RDMA documentation uses. No tag but `latest`, no
 * published digest and no published list of platforms: the only recipe Mellanox published for it
 * builds on an amd64 CUDA base, so the action counts it as amd64 only (docs/IMAGES.md).
 */
export const BENCHMARK_IMAGE_DEFAULT = 'docker.io/mellanox/cuda-perftest:latest'

/**
 * Azure/aks-rdma-infiniband's NCCL test image the collective check runs: nccl-tests v2.17.6
 * (`da0b547`) built with Open MPI on nvidia/cuda:13.3.0-devel-ubuntu24.04 for sm_90 and sm_100
 * (Hopper, Blackwell) with sshd on port 2222 (tests/containers/nccl-tests/Dockerfile), pushed for
 * linux/amd64 and linux/arm64 by .github/workflows/build-nccl-tests-image.yaml. That workflow tags
 * only `latest` (its dated `type=schedule` tag needs a schedule trigger it does not have), so the
 * default cannot be pinned by a version tag: pin it by digest (collective-image) for reproducible
 * runs (docs/IMAGES.md). It runs unprivileged, only in the check's pods.
 */
export const NCCL_TESTS_IMAGE = 'ghcr.io/azure/aks-rdma-infiniband/nccl-tests:latest'

/** The CPU architectures each default image is published for (sources in docs/IMAGES.md). */
export const DEFAULT_IMAGE_ARCHES: Readonly<Record<string, readonly CpuArch[]>> = {
  [BUSYBOX_IMAGE]: ['amd64', 'arm64'],
  [RDMA_DEVICE_PLUGIN_IMAGE]: ['amd64', 'arm64'],
  [BENCHMARK_IMAGE_DEFAULT]: ['amd64'],
  [DYNAMO_RUNTIME_IMAGE]: ['amd64', 'arm64'],
  [NCCL_TESTS_IMAGE]: ['amd64', 'arm64']
}

/** An image of the run: the input that chooses it (none for busybox), and whether it is that input's default. */
export interface RunImage {
  input?: string
  image: string
  isDefault: boolean
}

/**
 * The default images of a run that are not published for `arch` (a user-supplied image is the
 * user's to vouch for): on such a node the kubelet fails the container (`exec format error`, or
 * `no match for platform in manifest` at pull), so the run is refused before it starts.
 */
export function defaultImagesLacking(arch: CpuArch, images: RunImage[]): RunImage[] {
  return images.filter(i => i.isDefault && !(DEFAULT_IMAGE_ARCHES[i.image] ?? []).includes(arch))
}
