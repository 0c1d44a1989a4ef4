// The container images the action runs on every RDMA node (the device plugin's is an input's
// default), pinned by digest from published sources (each digest with its source in
// docs/IMAGES.md; a test checks them against copies of those sources in test/fixtures/upstream/).
// A tag alone can be re-pushed: these run privileged.

/**
 * busybox 1.37.0 (multi-arch index: amd64 and arm64 among its platforms) as docker-library's
 * repo-info publishes it (repos/busybox/remote/1.37.0.md). Runs ib-node-config (privileged,
 * hostPID, restarts kubelet) and the device plugin's and ib-node-config's wait init containers.
 */
export const BUSYBOX_IMAGE =
  'docker.io/library/busybox:1.37.0@sha256:9db7b59979c38555a39def84a31fb98b5296952f9e3afd4f6f11f05b07adfab0'

/**
 * The RDMA shared device plugin NVIDIA ships with Network Operator v26.4.0 (hack/release.yaml:
 * network-operator-v26.4.0), at the digest NVIDIA's OpenShift bundle for that release lists
 * (relatedImages `rdma-shared-device-plugin`). The upstream semver image (ghcr.io/mellanox/
 * k8s-rdma-shared-dev-plugin:v1.5.3, 2025-03) has no published digest.
 */
export const RDMA_DEVICE_PLUGIN_IMAGE =
  'nvcr.io/nvidia/mellanox/k8s-rdma-shared-dev-plugin:network-operator-v26.4.0@sha256:c50fe96cfb2e32cf497f3723cc0b90f72582c2bc84b3593389dc14bc813a58fc'

/** The plugin binary in both the upstream and NVIDIA's image (NVIDIA's manifest sets it as the command). */
export const RDMA_DEVICE_PLUGIN_COMMAND = ['/bin/k8s-rdma-shared-dp']

/**
 * NVIDIA Dynamo's vLLM runtime image the transport check runs: release 0.8.1 (vLLM v0.12.0, CUDA
 * 12.9; Dynamo's release artifacts), whose container/Dockerfile.vllm builds UCX v1.19.0 with
 * CUDA, verbs and gdrcopy into /usr/local/ucx (its bin on PATH: ucx_info, ucx_perftest) and runs
 * as the non-root user `dynamo` (UID 1000). Pinned by tag: NVIDIA publishes no digest for it in
 * the sources available (docs/IMAGES.md). It runs unprivileged, only in the check's two pods.
 */
export const DYNAMO_RUNTIME_IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.1'
