// Tests script/release in throwaway git repositories with a bare "remote": the version bump, dist/
// rebuilt for it and committed with it, CHANGELOG dating, the release notes (its section), the
// annotated vX.Y.Z tag, the moved (or new) major tag — the first release too, which creates v1 —,
// pushing only with --push, and every refusal (dirty tree, other branch, behind the remote, version
// not greater than the latest local or remote tag, dist/ not committed or stale, an empty Unreleased
// section, failing tests). A fake `npm` first on PATH records what the script runs, fails on demand,
// and on `run build` writes the version into dist/cli.js as the real build does, so the checks are
// observable without a real build.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const SCRIPT = path.resolve(process.cwd(), 'script', 'release')

interface Sandbox {
  root: string
  work: string
  remote: string
  npmLog: string
  env: NodeJS.ProcessEnv
}

interface Run {
  status: number | null
  stdout: string
  stderr: string
}

let box: Sandbox

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = box.env): Run {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

function git(args: string[], cwd = box.work): string {
  const r = run('git', args, cwd)
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`)
  return r.stdout.trim()
}

function release(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Run {
  return run(path.join(box.work, 'script', 'release'), args, box.work, { ...box.env, ...extraEnv })
}

/** What the fake npm was asked to do, one line per call. */
function npmCalls(): string[] {
  try {
    return readFileSync(box.npmLog, 'utf8').trim().split('\n').filter(Boolean)
  } catch {
    return []
  }
}

/** The commit a ref of the remote points to (annotated tags peeled). */
function remoteRef(ref: string): string | undefined {
  const lines = git(['ls-remote', 'origin']).split('\n')
  const find = (name: string): string | undefined => lines.find(l => l.endsWith(`\t${name}`))?.split('\t')[0]
  return find(`${ref}^{}`) ?? find(ref)
}

const commitOf = (ref: string): string => git(['rev-parse', `${ref}^{commit}`])
const tagsNow = (): string[] => git(['tag', '--list']).split('\n').filter(Boolean).sort()
const readJson = (f: string): any => JSON.parse(readFileSync(path.join(box.work, f), 'utf8'))

function makeSandbox(): Sandbox {
  const root = mkdtempSync(path.join(tmpdir(), 'release-test-'))
  const bin = path.join(root, 'bin')
  mkdirSync(bin)
  const npmLog = path.join(root, 'npm.log')
  writeFileSync(
    path.join(bin, 'npm'),
    [
      '#!/usr/bin/env bash',
      'echo "$*" >> "$FAKE_NPM_LOG"',
      'if [ -n "${FAKE_NPM_FAIL:-}" ] && [[ " $* " == *" $FAKE_NPM_FAIL "* ]]; then',
      '  echo "fake npm: $* failed" >&2',
      '  exit 1',
      'fi',
      'if [ "$*" = "run build" ]; then',
      '  echo "// cli $(node -p "require(\'./package.json\').version")" > dist/cli.js',
      'fi',
      ''
    ].join('\n')
  )
  chmodSync(path.join(bin, 'npm'), 0o755)
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Release Test',
    GIT_AUTHOR_EMAIL: 'release@example.invalid',
    GIT_COMMITTER_NAME: 'Release Test',
    GIT_COMMITTER_EMAIL: 'release@example.invalid',
    FAKE_NPM_LOG: npmLog,
    LANG: 'C'
  }
  return { root, work: path.join(root, 'work'), remote: path.join(root, 'remote.git'), npmLog, env }
}

/** A repository released as v1.0.0 (v1 at the same commit), pushed to a bare remote. */
function seedRepository(): void {
  const { work, remote } = box
  run('git', ['init', '--quiet', '--bare', '--initial-branch=main', remote], box.root)
  mkdirSync(path.join(work, 'script'), { recursive: true })
  mkdirSync(path.join(work, 'dist'))
  run('git', ['init', '--quiet', '--initial-branch=main'], work)
  copyFileSync(SCRIPT, path.join(work, 'script', 'release'))
  chmodSync(path.join(work, 'script', 'release'), 0o755)
  const pkg = { name: 'aks-rdma-action', version: '1.0.0', private: true, type: 'module' }
  writeFileSync(path.join(work, 'package.json'), JSON.stringify(pkg, null, 2) + '\n')
  writeFileSync(
    path.join(work, 'package-lock.json'),
    JSON.stringify(
      {
        name: pkg.name,
        version: '1.0.0',
        lockfileVersion: 3,
        packages: { '': { name: pkg.name, version: '1.0.0' } }
      },
      null,
      2
    ) + '\n'
  )
  writeFileSync(
    path.join(work, 'CHANGELOG.md'),
    '# Changelog\n\n## [Unreleased]\n\n### Added\n\n- Something new.\n\n## [1.0.0] - 2026-01-01\n\n- First.\n'
  )
  writeFileSync(path.join(work, 'dist', 'index.js'), '// bundle\n')
  writeFileSync(path.join(work, 'dist', 'post.js'), '// post\n')
  writeFileSync(path.join(work, 'dist', 'cli.js'), '// cli 1.0.0\n')
  git(['add', '-A'])
  git(['commit', '--quiet', '-m', 'initial'])
  git(['tag', '-a', 'v1.0.0', '-m', 'Release v1.0.0'])
  git(['tag', '-a', 'v1', '-m', 'v1'])
  git(['remote', 'add', 'origin', remote])
  git(['push', '--quiet', 'origin', 'main', 'v1.0.0', 'v1'])
}

beforeEach(() => {
  box = makeSandbox()
  seedRepository()
})

afterEach(() => {
  rmSync(box.root, { recursive: true, force: true })
})

describe('a release', () => {
  test('bumps the version, dates the changelog, tags vX.Y.Z, moves v1, and pushes nothing', () => {
    const before = commitOf('HEAD')
    const r = release(['v1.1.0'])
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)

    expect(readJson('package.json').version).toBe('1.1.0')
    const lock = readJson('package-lock.json')
    expect([lock.version, lock.packages[''].version]).toEqual(['1.1.0', '1.1.0'])
    const changelog = readFileSync(path.join(box.work, 'CHANGELOG.md'), 'utf8')
    expect(changelog).toMatch(
      /## \[Unreleased\]\n\n## \[1\.1\.0\] - \d{4}-\d{2}-\d{2}\n\n### Added\n\n- Something new\./
    )

    const head = commitOf('HEAD')
    expect(head).not.toBe(before)
    expect(git(['log', '-1', '--format=%s'])).toBe('Release v1.1.0')
    expect(git(['rev-parse', 'HEAD~1'])).toBe(before)
    expect(git(['status', '--porcelain'])).toBe('')

    expect(git(['cat-file', '-t', 'v1.1.0'])).toBe('tag') // annotated
    expect(commitOf('v1.1.0')).toBe(head)
    expect(git(['cat-file', '-t', 'v1'])).toBe('tag')
    expect(commitOf('v1')).toBe(head)
    expect(commitOf('v1.0.0')).toBe(before)
    expect(git(['for-each-ref', '--format=%(contents:subject)', 'refs/tags/v1'])).toBe(
      'Update v1 tag to v1.1.0'
    )

    expect(npmCalls()).toEqual(['run check-dist', 'test', 'run build'])
    // dist/ was rebuilt for the new version and is in the release commit (what the tag runs).
    expect(git(['show', 'v1.1.0:dist/cli.js'])).toBe('// cli 1.1.0')
    // The release notes: the version's CHANGELOG section.
    const notes = path.join(box.work, '.git', 'release-notes-v1.1.0.md')
    expect(readFileSync(notes, 'utf8').trim()).toBe('### Added\n\n- Something new.')
    expect(r.stdout).toContain(`gh release create v1.1.0 --verify-tag --title v1.1.0 --notes-file ${notes}`)
    expect(r.stdout).toContain('moved v1 to v1.1.0')
    expect(r.stdout).toContain('git push origin main')
    expect(r.stdout).toContain('git push origin v1.1.0')
    expect(r.stdout).toContain('git push origin v1 --force')
    // Nothing reached the remote.
    expect(remoteRef('refs/heads/main')).toBe(before)
    expect(remoteRef('refs/tags/v1.1.0')).toBeUndefined()
    expect(remoteRef('refs/tags/v1')).toBe(before)
  })

  test('--push publishes main, the new tag and the moved major tag; the next release moves it again', () => {
    expect(release(['v1.1.0', '--push']).status).toBe(0)
    const first = commitOf('HEAD')
    expect(remoteRef('refs/heads/main')).toBe(first)
    expect(remoteRef('refs/tags/v1.1.0')).toBe(first)
    expect(remoteRef('refs/tags/v1')).toBe(first)

    // The next release has its own changes to tell.
    const changelog = path.join(box.work, 'CHANGELOG.md')
    writeFileSync(
      changelog,
      readFileSync(changelog, 'utf8').replace(
        '## [Unreleased]\n',
        '## [Unreleased]\n\n### Fixed\n\n- A fix.\n'
      )
    )
    git(['commit', '--quiet', '-am', 'a fix'])
    const fix = commitOf('HEAD')
    const r = release(['v1.1.1', '--push', '--skip-tests'])
    expect(r.status).toBe(0)
    const second = commitOf('HEAD')
    expect(git(['rev-parse', 'HEAD~1'])).toBe(fix)
    expect(remoteRef('refs/tags/v1')).toBe(second)
    expect(remoteRef('refs/tags/v1.1.0')).toBe(first)
    expect(remoteRef('refs/tags/v1.1.1')).toBe(second)
    // The second run skipped the tests but not the dist/ check.
    expect(npmCalls()).toEqual(['run check-dist', 'test', 'run build', 'run check-dist', 'run build'])
    expect(r.stdout).toContain('--skip-tests: not running the tests')
  })

  test('a new major version creates its own major tag and leaves v1 where it was', () => {
    const before = commitOf('HEAD')
    const r = release(['v2.0.0'])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('created v2 at v2.0.0')
    expect(commitOf('v2')).toBe(commitOf('HEAD'))
    expect(git(['cat-file', '-t', 'v2'])).toBe('tag')
    expect(commitOf('v1')).toBe(before)
    expect(r.stdout).toContain('git push origin v2 --force')
  })

  test('the first release: no tag yet, v1.0.0 creates v1, which `uses: …@v1` then finds', () => {
    git(['tag', '-d', 'v1.0.0', 'v1'])
    git(['push', '--quiet', 'origin', ':refs/tags/v1.0.0', ':refs/tags/v1'])
    const r = release(['v1.0.0', '--push'])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('created v1 at v1.0.0')
    expect(remoteRef('refs/tags/v1')).toBe(commitOf('HEAD'))
    expect(remoteRef('refs/tags/v1.0.0')).toBe(commitOf('HEAD'))
    expect(git(['ls-tree', '--name-only', 'v1', 'dist/']).split('\n')).toEqual([
      'dist/cli.js',
      'dist/index.js',
      'dist/post.js'
    ])
  })

  test('without a version and without a terminal it asks for one instead of guessing', () => {
    const r = release([])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/no version given .*latest tag: v1\.0\.0/)
    expect(tagsNow()).toEqual(['v1', 'v1.0.0'])
  })
})

describe('refusals (nothing is committed, tagged or pushed)', () => {
  function expectUntouched(head: string): void {
    expect(commitOf('HEAD')).toBe(head)
    expect(tagsNow()).toEqual(['v1', 'v1.0.0'])
    expect(remoteRef('refs/tags/v1')).toBe(head)
  }

  test('a dirty tree: a modified file, or an untracked one', () => {
    const head = commitOf('HEAD')
    writeFileSync(path.join(box.work, 'dist', 'index.js'), '// edited\n')
    let r = release(['v1.1.0'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/working tree is not clean/)
    git(['checkout', '--', 'dist/index.js'])
    writeFileSync(path.join(box.work, 'notes.txt'), 'scratch\n')
    r = release(['v1.1.0'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/not clean/)
    expect(npmCalls()).toEqual([])
    expectUntouched(head)
  })

  test.each([
    ['v1.0.0', /tag v1\.0\.0 already exists/],
    ['v0.9.9', /not greater than the latest tag v1\.0\.0/],
    ['1.1.0', /not of the form vX\.Y\.Z/],
    ['v1.1', /not of the form vX\.Y\.Z/],
    ['v01.2.0', /not of the form vX\.Y\.Z/]
  ])('version %s', (version, message) => {
    const head = commitOf('HEAD')
    const r = release([version])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(message)
    expect(npmCalls()).toEqual([])
    expectUntouched(head)
  })

  test('a version not greater than a tag that exists only on the remote', () => {
    const head = commitOf('HEAD')
    git(['tag', '-a', 'v1.5.0', '-m', 'released elsewhere'])
    git(['push', '--quiet', 'origin', 'v1.5.0'])
    git(['tag', '-d', 'v1.5.0'])
    const r = release(['v1.3.0'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/not greater than the latest tag v1\.5\.0/)
    expectUntouched(head)
    expect(release(['v1.5.0']).stderr).toMatch(/tag v1\.5\.0 already exists/)
  })

  test('another branch than main', () => {
    const head = commitOf('HEAD')
    git(['checkout', '--quiet', '-b', 'feature'])
    const r = release(['v1.1.0'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/releases are cut from main; this is feature/)
    expectUntouched(head)
  })

  test('main behind the remote', () => {
    const head = commitOf('HEAD')
    const other = path.join(box.root, 'other')
    run('git', ['clone', '--quiet', box.remote, other], box.root)
    writeFileSync(path.join(other, 'extra.txt'), 'x\n')
    git(['add', 'extra.txt'], other)
    git(['commit', '--quiet', '-m', 'elsewhere'], other)
    git(['push', '--quiet', 'origin', 'main'], other)
    const r = release(['v1.1.0'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/main is behind or has diverged from origin\/main/)
    expect(commitOf('HEAD')).toBe(head)
    expect(tagsNow()).toEqual(['v1', 'v1.0.0'])
  })

  test('a stale dist/', () => {
    const head = commitOf('HEAD')
    const r = release(['v1.1.0'], { FAKE_NPM_FAIL: 'check-dist' })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/dist\/ is stale/)
    expect(npmCalls()).toEqual(['run check-dist'])
    expect(readJson('package.json').version).toBe('1.0.0')
    expectUntouched(head)
  })

  test('an empty Unreleased section: a release must say what it changes', () => {
    writeFileSync(
      path.join(box.work, 'CHANGELOG.md'),
      '# Changelog\n\n## [Unreleased]\n\n## [1.0.0] - 2026-01-01\n\n- First.\n'
    )
    git(['commit', '--quiet', '-am', 'empty changelog'])
    const head = commitOf('HEAD')
    const r = release(['v1.1.0'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/the Unreleased section is empty; say what v1\.1\.0 changes first/)
    expect(npmCalls()).toEqual([])
    expect(commitOf('HEAD')).toBe(head)
    expect(tagsNow()).toEqual(['v1', 'v1.0.0'])
  })

  test('dist/ not committed: a tag without the bundles cannot run', () => {
    git(['rm', '--quiet', '--cached', 'dist/post.js'])
    git(['commit', '--quiet', '-m', 'untrack post.js'])
    rmSync(path.join(box.work, 'dist', 'post.js'))
    const r = release(['v1.1.0'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/dist\/post\.js is not committed/)
    expect(npmCalls()).toEqual([])
    expect(tagsNow()).toEqual(['v1', 'v1.0.0'])
  })

  test('failing tests, unless --skip-tests', () => {
    const head = commitOf('HEAD')
    const r = release(['v1.1.0'], { FAKE_NPM_FAIL: 'test' })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/the tests fail/)
    expect(git(['status', '--porcelain'])).toBe('')
    expectUntouched(head)
    expect(release(['v1.1.0', '--skip-tests'], { FAKE_NPM_FAIL: 'test' }).status).toBe(0)
    expect(commitOf('v1')).toBe(commitOf('HEAD'))
  })

  test('--push without such a remote, and unknown options', () => {
    const head = commitOf('HEAD')
    const r = release(['v1.1.0', '--push', '--remote', 'upstream'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/no remote named upstream/)
    const u = release(['v1.1.0', '--force'])
    expect(u.status).toBe(2)
    expect(u.stderr).toMatch(/unknown option --force/)
    expectUntouched(head)
  })
})
