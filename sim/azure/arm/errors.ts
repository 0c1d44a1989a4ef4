// ARM's error envelope: `{"error": {"code", "message", "target"?, "details"?}}`, as RestError
// reads it (`code` from body.error.code). Also the common not-found answers ARM gives.
import { json, type SimHttpResponse } from '../http.js'

export function armError(
  status: number,
  code: string,
  message: string,
  extra: { target?: string; headers?: Record<string, string>; details?: unknown[] } = {}
): SimHttpResponse {
  const error: Record<string, unknown> = { code, message }
  if (extra.target) error.target = extra.target
  if (extra.details) error.details = extra.details
  return json(status, { error }, extra.headers)
}

export function resourceNotFound(type: string, name: string, resourceGroup: string): SimHttpResponse {
  return armError(
    404,
    'ResourceNotFound',
    `The Resource '${type}/${name}' under resource group '${resourceGroup}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`
  )
}

export function resourceGroupNotFound(resourceGroup: string): SimHttpResponse {
  return armError(404, 'ResourceGroupNotFound', `Resource group '${resourceGroup}' could not be found.`)
}

export function subscriptionNotFound(subscriptionId: string): SimHttpResponse {
  return armError(404, 'SubscriptionNotFound', `The subscription '${subscriptionId}' could not be found.`)
}
