// The real Azure SDK clients the action talks to ARM with (AKS, Features, Resources), pointed at
// the configured cloud, with bounded retries. Adds the action's own retry policy for what the
// SDK's default retry leaves alone: 429 without Retry-After and broken connections.
import { ContainerServiceClient } from '@azure/arm-containerservice'
import { FeatureClient } from '@azure/arm-features'
import { ResourceManagementClient } from '@azure/arm-resources'
import type { TokenCredential } from '@azure/identity'
import type {
  PipelinePolicy,
  PipelineRequest,
  PipelineResponse,
  SendRequest
} from '@azure/core-rest-pipeline'
import type { AzureSettings } from '../settings/settings.js'
import { asRestError } from './arm-errors.js'
import { armScope, cloudDefaults, normalizeEndpoint } from './cloud.js'
import { silentLog, type Log } from '../log/index.js'
import { sleep } from './wait.js'

export interface ArmClients {
  containerService: ContainerServiceClient
  features: FeatureClient
  resources: ResourceManagementClient
  subscriptionId: string
  armEndpoint: string
  credential: TokenCredential
}

export interface RetryTuning {
  /** Attempts after the first (settings.wait.retries). */
  retries: number
  /** First backoff delay (default 2 s); tests shorten it. */
  baseDelayMs?: number
  /** Upper bound of one delay (default 60 s). */
  maxDelayMs?: number
  /** Bound of one HTTP request without its own timeout (default 120 s); a timed-out request is retried. */
  requestTimeoutMs?: number
}

export interface ClientOptions extends RetryTuning {
  log?: Log
}

const RETRY_AFTER_HEADERS = ['retry-after', 'retry-after-ms', 'x-ms-retry-after-ms']
/**
 * Connection failures the SDK's default retry does not retry. It already retries ECONNRESET,
 * ECONNREFUSED, ETIMEDOUT, ESOCKETTIMEDOUT, ENOENT and ENOTFOUND itself (bounded by the same
 * retry count), so those are left to it and the two policies never multiply.
 */
const TRANSIENT_CODES = new Set([
  'EPIPE',
  'ECONNABORTED',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'ERR_STREAM_PREMATURE_CLOSE',
  'REQUEST_SEND_ERROR'
])

export const TRANSIENT_RETRY_POLICY_NAME = 'aksRdmaTransientRetryPolicy'

function backoffMs(attempt: number, base: number, max: number): number {
  const exp = Math.min(max, base * 2 ** attempt)
  return Math.round(exp / 2 + Math.random() * (exp / 2))
}

function isThrottledWithoutHint(res: PipelineResponse): boolean {
  return res.status === 429 && !RETRY_AFTER_HEADERS.some(h => res.headers.get(h))
}

/**
 * Retries a 429 that carries no Retry-After and connection-level failures (reset, broken pipe)
 * with jittered exponential backoff, at most `retries` times. Runs per call, around the SDK's
 * own retry policy, so the two do not multiply for the cases the SDK handles itself.
 */
export function transientRetryPolicy(tuning: RetryTuning, log: Log = silentLog): PipelinePolicy {
  const base = tuning.baseDelayMs ?? 2000
  const max = tuning.maxDelayMs ?? 60_000
  return {
    name: TRANSIENT_RETRY_POLICY_NAME,
    async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
      if (!request.timeout) request.timeout = tuning.requestTimeoutMs ?? 120_000
      for (let attempt = 0; ; attempt++) {
        let res: PipelineResponse | undefined
        let error: unknown
        try {
          res = await next(request)
        } catch (e) {
          error = e
        }
        const restError = asRestError(error)
        const code = restError?.code ?? (error as { code?: string } | undefined)?.code
        // An abort the caller did not ask for is the request timeout set above.
        const timedOut =
          (error as { name?: string } | undefined)?.name === 'AbortError' && !request.abortSignal?.aborted
        const transientError =
          timedOut ||
          (error !== undefined &&
            restError?.statusCode === undefined &&
            typeof code === 'string' &&
            TRANSIENT_CODES.has(code))
        // HLC clients (Features) deserialize inside this policy, so a 429 arrives as a RestError.
        const failed = res ?? restError?.response
        const throttled = failed !== undefined && isThrottledWithoutHint(failed)
        if ((!transientError && !throttled) || attempt >= tuning.retries || request.abortSignal?.aborted) {
          if (error !== undefined) throw error
          return res!
        }
        const delay = backoffMs(attempt, base, max)
        const what = throttled
          ? 'HTTP 429 without Retry-After'
          : timedOut
            ? `no answer within ${request.timeout} ms`
            : `connection error ${code}`
        log.debug(
          `${request.method} ${new URL(request.url).pathname}: ${what}; retry ${attempt + 1}/${tuning.retries} in ${delay} ms`
        )
        await sleep(delay, request.abortSignal)
      }
    }
  }
}

/** Options shared by every pipeline (ARM clients and the identity credential). */
export function pipelineOptions(tuning: RetryTuning, log: Log = silentLog) {
  return {
    retryOptions: {
      maxRetries: tuning.retries,
      retryDelayInMs: tuning.baseDelayMs ?? 2000,
      maxRetryDelayInMs: tuning.maxDelayMs ?? 60_000
    },
    additionalPolicies: [{ policy: transientRetryPolicy(tuning, log), position: 'perCall' as const }]
  }
}

/** Constructs the ARM clients for the subscription in `azure`. */
export function createArmClients(
  azure: AzureSettings,
  credential: TokenCredential,
  options: ClientOptions
): ArmClients {
  if (!azure.subscriptionId) {
    throw new Error(
      'subscription-id is required (input subscription-id, or subscriptionId in the creds JSON)'
    )
  }
  const endpoint = normalizeEndpoint(azure.armEndpoint)
  // The token audience is the cloud's Resource Manager, not the URL requests go to: an
  // `arm-endpoint` override (a proxy, a private endpoint, the simulator) serves the same ARM.
  const scope = armScope(cloudDefaults(azure.environment).armEndpoint)
  const common = pipelineOptions(options, options.log)
  return {
    containerService: new ContainerServiceClient(credential, azure.subscriptionId, {
      endpoint,
      credentials: { scopes: [scope] },
      ...common
    }),
    // HLC client: `endpoint` sets the base URL, `credentialScopes` the token scope (its default
    // `${endpoint}/.default` is wrong for some clouds).
    features: new FeatureClient(credential, azure.subscriptionId, {
      endpoint,
      $host: endpoint,
      credentialScopes: [scope],
      ...common
    }),
    resources: new ResourceManagementClient(credential, azure.subscriptionId, {
      endpoint,
      credentials: { scopes: [scope] },
      ...common
    }),
    subscriptionId: azure.subscriptionId,
    armEndpoint: endpoint,
    credential
  }
}
