// Request-body validation against the agent pool schema table, answering like ARM: a value of
// the wrong JSON type is `InvalidRequestContent` (the body cannot be deserialized), an out-of-
// range number or a value outside an enum is `InvalidParameter`; both 400, `target` = the JSON
// path. Properties the table does not know are ignored, as ARM resource providers do.
import type { SimHttpResponse } from '../http.js'
import type { PropSchema } from './agent-pool-schema.js'
import { armError } from './errors.js'

const INT32 = { min: -2_147_483_648, max: 2_147_483_647 }

function typeName(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v
}

function hasType(v: unknown, s: PropSchema): boolean {
  switch (s.type) {
    case 'string':
      return typeof v === 'string'
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v)
    case 'number':
      return typeof v === 'number' && Number.isFinite(v)
    case 'boolean':
      return typeof v === 'boolean'
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v)
    case 'array':
      return Array.isArray(v)
  }
}

/** The first violation in `value` at JSON path `path`, as an ARM 400; undefined when valid. */
export function validateValue(value: unknown, schema: PropSchema, path: string): SimHttpResponse | undefined {
  if (value === null || value === undefined) return undefined
  if (!hasType(value, schema)) {
    return armError(
      400,
      'InvalidRequestContent',
      `The request content was invalid and could not be deserialized: 'Error converting value ${JSON.stringify(value)} (${typeName(value)}) to type '${schema.type}'. Path '${path}'.'`,
      { target: path }
    )
  }
  if (schema.type === 'integer' && ((value as number) < INT32.min || (value as number) > INT32.max)) {
    return armError(
      400,
      'InvalidRequestContent',
      `The request content was invalid and could not be deserialized: 'Value ${String(value)} is too large or too small for an Int32. Path '${path}'.'`,
      { target: path }
    )
  }
  if (schema.enum && !schema.enum.includes(value as string)) {
    return armError(
      400,
      'InvalidParameter',
      `The value '${String(value)}' of parameter '${path}' is invalid. Allowed values are: ${schema.enum.join(', ')}.`,
      { target: path }
    )
  }
  if (schema.minimum !== undefined && (value as number) < schema.minimum) {
    return armError(
      400,
      'InvalidParameter',
      `The value ${String(value)} of parameter '${path}' is below the minimum of ${schema.minimum}.`,
      { target: path }
    )
  }
  if (schema.maximum !== undefined && (value as number) > schema.maximum) {
    return armError(
      400,
      'InvalidParameter',
      `The value ${String(value)} of parameter '${path}' is above the maximum of ${schema.maximum}.`,
      { target: path }
    )
  }
  if (schema.type === 'array' && schema.items) {
    const items = value as unknown[]
    for (let i = 0; i < items.length; i++) {
      const bad = validateValue(items[i], schema.items, `${path}[${i}]`)
      if (bad) return bad
    }
  }
  if (schema.type === 'object') {
    const o = value as Record<string, unknown>
    for (const [k, v] of Object.entries(o)) {
      const sub = schema.properties?.[k] ?? schema.additionalProperties
      if (!sub) continue
      const bad = validateValue(v, sub, `${path}.${k}`)
      if (bad) return bad
    }
  }
  return undefined
}

export function validateProperties(
  props: unknown,
  table: Record<string, PropSchema>,
  path = 'properties'
): SimHttpResponse | undefined {
  return validateValue(props, { type: 'object', properties: table }, path)
}
