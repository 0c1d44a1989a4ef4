// Checks the commit messages since the last release against CONTRIBUTING.md's convention:
//   area: imperative subject            (at most 72 characters, lower-case verb, no final period)
//   <blank line>
//   why the change was made             (a body; merge commits may go without)
// "Since the last release" is the newest tag vX.Y.Z reachable from HEAD; before the first release,
// the commit where the convention began (CONVENTION_START). Exits 1 naming each commit at fault.
// `node script/check-commits.mjs <range>` checks another range (e.g. origin/main..HEAD).
import { execFileSync } from 'node:child_process'

/** The last commit written before the convention: everything after it is checked. */
export const CONVENTION_START = 'af340a08f3a9bd9be9149bc08080d9f95ac13900'
export const MAX_SUBJECT = 72
/** `area: subject` — areas are lower-case words, a/b paths or comma lists (`sim, test: …`). */
const SUBJECT = /^([a-z0-9][a-z0-9._/-]*)(, [a-z0-9][a-z0-9._/-]*)*: [a-z0-9`'"(]/

const git = (...args) =>
  execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
const tryGit = (...args) => {
  try {
    return git(...args)
  } catch {
    return undefined
  }
}

/** The problems with one commit message (none when it follows the convention). */
export function messageProblems(message, { merge = false } = {}) {
  const [subject = '', ...body] = message.replace(/\s+$/, '').split('\n')
  const problems = []
  if (subject.length > MAX_SUBJECT)
    problems.push(`subject is ${subject.length} characters (at most ${MAX_SUBJECT})`)
  if (!merge && !SUBJECT.test(subject))
    problems.push("subject is not 'area: imperative subject' (e.g. 'verify: judge verbs devices per node')")
  if (/\.$/.test(subject)) problems.push('subject ends with a period')
  if (body.length > 0 && body[0].trim() !== '') problems.push('no blank line between subject and body')
  if (!merge && !body.some(line => line.trim() !== '')) problems.push('no body saying why')
  return problems
}

/** The range to check: since the newest release tag, else since the convention began. */
function defaultRange() {
  const tag = tryGit('describe', '--tags', '--abbrev=0', '--match', 'v[0-9]*.[0-9]*.[0-9]*', 'HEAD')
  if (tag) return `${tag}..HEAD`
  if (tryGit('merge-base', '--is-ancestor', CONVENTION_START, 'HEAD') !== undefined)
    return `${CONVENTION_START}..HEAD`
  return undefined
}

function main() {
  const range = process.argv[2] ?? defaultRange()
  if (!range) {
    const shallow = tryGit('rev-parse', '--is-shallow-repository') === 'true'
    console.log(
      shallow
        ? 'check-commits: shallow clone without the release history; fetch with fetch-depth: 0 to check commits'
        : 'check-commits: no release tag and no convention start in this history; nothing to check'
    )
    return 0
  }
  const shas = (tryGit('rev-list', '--reverse', range) ?? '').split('\n').filter(Boolean)
  let bad = 0
  for (const sha of shas) {
    const merge = git('rev-list', '--parents', '-n', '1', sha).split(' ').length > 2
    const message = git('log', '-1', '--format=%B', sha)
    const problems = messageProblems(message, { merge })
    if (problems.length === 0) continue
    bad++
    console.error(
      `${sha.slice(0, 12)} ${JSON.stringify(message.split('\n')[0].slice(0, 90))}: ${problems.join('; ')}`
    )
  }
  console.log(`check-commits: ${shas.length} commit(s) in ${range}, ${bad} not following CONTRIBUTING.md`)
  return bad === 0 ? 0 : 1
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main()
