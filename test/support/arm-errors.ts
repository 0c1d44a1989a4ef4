// Unit-test helper: the errors an ARM call fails with, as the Azure SDK raises them: a RestError
// from @azure/core-rest-pipeline with the HTTP status, ARM's error code and, as core-client sets
// it, the response body's `error` in `details`; and the AbortError @azure/core-lro and
// @azure/abort-controller reject with when an abort signal fires.
import { RestError } from '@azure/core-rest-pipeline'

/** An ARM error as the SDK throws it: a RestError with the status and ARM's error body. */
export function armFail(statusCode: number, code: string, message: string): RestError {
  return Object.assign(new RestError(message, { statusCode, code }), {
    details: { error: { code, message } }
  })
}

/** What an aborted poll or request rejects with (matched by name, as the SDK does). */
export const abortError = (): Error =>
  Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' })
