// The last run's record, the key last-run.json of the ownership record ConfigMap.
// Docs: docs/day-two.md#what-is-installed-here-status, docs/security.md#what-the-action-owns.
import type { KubeClient, KubeReader } from '../kube/client.js'
import { httpStatusOf, isConflict, KubeRequestError, messageOf } from '../kube/errors.js'
import type { KubeObject } from '../kube/types.js'
import { OWNERSHIP_RECORD } from './ownership.js'

/** The record's data key for the last run (beside `owned.json`). */
export const LAST_RUN_KEY = 'last-run.json'

export interface LastRun {
  /** When the run finished (ISO time, the runner's clock). */
  at: string
  mode: string
  /** The report's result: success, failure, drifted, cancelled. */
  result: string
  /** The action's version that ran. */
  version: string
  runId: string
}

const RECORD_REF = { apiVersion: 'v1', kind: 'ConfigMap', ...OWNERSHIP_RECORD } as const
const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200

/** The last run a record's text holds; undefined when there is none or it is not of the shape (the text is the cluster's). */
export function parseLastRun(value: string | undefined): LastRun | undefined {
  if (!value) return undefined
  let raw: Record<string, unknown>
  try {
    raw = JSON.parse(value) as Record<string, unknown>
  } catch {
    return undefined
  }
  if (typeof raw !== 'object' || raw === null) return undefined
  const { at, mode, result, version, runId } = raw
  if (!text(at) || !text(mode) || !text(result) || !text(version) || !text(runId)) return undefined
  if (Number.isNaN(Date.parse(at))) return undefined
  return { at, mode, result, version, runId }
}

/** The last run the record of the cluster holds (undefined: no record, or no run recorded in it). */
export async function readLastRun(kube: KubeReader): Promise<LastRun | undefined> {
  const live = await kube.get(RECORD_REF)
  return parseLastRun((live?.data as Record<string, string> | undefined)?.[LAST_RUN_KEY])
}

/**
 * Writes `run` into the ownership record, over the resourceVersion just read; a conflict (another
 * writer moved the record) reads it again. `absent` when there is no record: nothing is written.
 */
export async function recordLastRun(client: KubeClient, run: LastRun): Promise<'recorded' | 'absent'> {
  const what = `update configmap ${OWNERSHIP_RECORD.namespace}/${OWNERSHIP_RECORD.name}`
  for (let attempt = 0; ; attempt++) {
    const live = await client.get(RECORD_REF)
    if (!live) return 'absent'
    const body: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      // What the record is (name, labels, annotations) over the version read; the server keeps the rest.
      metadata: {
        ...OWNERSHIP_RECORD,
        ...(live.metadata.labels ? { labels: live.metadata.labels } : {}),
        ...(live.metadata.annotations ? { annotations: live.metadata.annotations } : {}),
        resourceVersion: live.metadata.resourceVersion
      },
      data: {
        ...((live.data as Record<string, string> | undefined) ?? {}),
        [LAST_RUN_KEY]: JSON.stringify(run)
      }
    }
    try {
      await client.request(
        what,
        () => client.core.replaceNamespacedConfigMap({ ...OWNERSHIP_RECORD, body: body as never }),
        true
      )
      return 'recorded'
    } catch (e) {
      if (isConflict(e) && attempt < 4) continue
      if (isConflict(e)) throw e
      throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
    }
  }
}
