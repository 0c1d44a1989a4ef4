// What the simulated containers' images hold, where the action depends on it: the user an image
// runs as and the UCX it ships. NVIDIA Dynamo's runtime images (nvcr.io/nvidia/ai-dynamo/
// <backend>-runtime) run as `dynamo`, UID 1000, and carry UCX built with CUDA, verbs and gdrcopy in
// /usr/local/ucx (its bin on PATH): v1.20.0 in the 0.8.x line (ai-dynamo/dynamo PR #5007 set it in
// container/build.sh, which overrides the Dockerfile's ARG default; NIXL 0.8.0), the 1.21 series
// from 1.4 on (Dynamo's compatibility page: "UCX 1.21.x"; modelled as 1.21.0); the scenario's
// `dynamo.ucx` builds it without CUDA or verbs.
// Every other image runs as root and has no UCX. A container's securityContext.runAsUser (or the
// pod's) overrides the image's user, as the kubelet's does.
import type { Scenario } from '../../scenario.js'

export interface UcxBuild {
  version: string
  /** Built --with-cuda, and its CUDA module (libuct_cuda.so) found at run time. */
  cuda: boolean
  /** Built --with-verbs, with rdma-core's libibverbs and libmlx5 in the image. */
  verbs: boolean
}

export interface ImageModel {
  uid: number
  user: string
  ucx?: UcxBuild
}

const DYNAMO_RUNTIME = /(^|\/)ai-dynamo\/[a-z0-9-]+-runtime(:|@|$)/

export function isDynamoRuntime(image: string): boolean {
  return DYNAMO_RUNTIME.test(image)
}

/** The UCX a Dynamo runtime tag ships: 1.20.0 up to the 1.3 line, 1.21 from 1.4 (and any other tag). */
export function dynamoUcxVersion(image: string): string {
  const tag = /:(\d+)\.(\d+)\.\d+/.exec(image)
  if (!tag) return '1.21.0'
  const [major, minor] = [Number(tag[1]), Number(tag[2])]
  return major === 0 || (major === 1 && minor < 4) ? '1.20.0' : '1.21.0'
}

export function imageModel(image: string, scenario: Scenario): ImageModel {
  if (!isDynamoRuntime(image)) return { uid: 0, user: 'root' }
  const ucx = scenario.dynamo?.ucx ?? {}
  return {
    uid: 1000,
    user: 'dynamo',
    ucx: { version: dynamoUcxVersion(image), cuda: ucx.cuda ?? true, verbs: ucx.verbs ?? true }
  }
}

/** The UID a container runs as: its runAsUser, the pod's, else the image's. */
export function containerUid(podSpec: any, container: any, image: ImageModel): number {
  const own = container?.securityContext?.runAsUser
  if (typeof own === 'number') return own
  const pod = podSpec?.securityContext?.runAsUser
  return typeof pod === 'number' ? pod : image.uid
}
