// A folder of test/fixtures whose captures (*.txt) each have an entry in its expected.json, read for
// the parser tests that check every capture against its entry (test/unit/parse).
import { expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

export interface ExpectedFixture<T> {
  file: string
  text: string
  want: T
}

/** Every capture of test/fixtures/<folder> with its entry; call inside a describe: it adds the test
 * that the captures and the entries name the same files. */
export function expectedFixtures<T>(folder: string): ExpectedFixture<T>[] {
  const dir = path.resolve(process.cwd(), 'test/fixtures', folder)
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Record<string, T>
  const files = readdirSync(dir)
    .filter(f => f.endsWith('.txt'))
    .sort()
  it('has an expectation for every fixture file', () => {
    expect(files).toEqual(Object.keys(expected).sort())
  })
  return files.map(file => ({ file, text: readFileSync(path.join(dir, file), 'utf8'), want: expected[file] }))
}
