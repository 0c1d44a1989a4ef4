// What the mutation run's initial test run learnt, kept for the mutant runs (other processes of
// the same sandbox): how long each test and each file's beforeAll/afterAll hooks took (so a mutant
// runs its cheapest covering tests first and a kill ends it early), and which tests reached each
// mutant while they ran (a static mutant's flows: Stryker hands a static mutant no test filter).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const RECORD_FILE = '.mutation-dry-run.json'

/**
 * @typedef {{ testMs: Record<string, number>, hookMs: Record<string, number>,
 *   coveredBy: Record<string, string[]> }} DryRunRecord
 */

/** Inverts Stryker's per-test coverage (test id → mutant hits) into mutant id → test ids. */
export function coverageByMutant(perTest) {
  const out = {}
  for (const [testId, hits] of Object.entries(perTest))
    for (const id of Object.keys(hits)) (out[id] ??= []).push(testId)
  return out
}

/** @param {DryRunRecord} record */
export function writeRecord(root, record) {
  writeFileSync(path.join(root, RECORD_FILE), JSON.stringify(record))
}

/** @returns {DryRunRecord | undefined} */
export function readRecord(root) {
  const file = path.join(root, RECORD_FILE)
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined
}
