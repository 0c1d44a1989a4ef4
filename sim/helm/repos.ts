// helm's client-side repository state: repositories.yaml (HELM_REPOSITORY_CONFIG, default
// $XDG_CONFIG_HOME/helm or ~/.config/helm) and the cached index files (HELM_REPOSITORY_CACHE,
// default ~/.cache/helm/repository). Only the simulated `nvidia` repository URL can be reached.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml, stringify } from 'yaml'
import { CHARTS, NVIDIA_REPO_URL, compareVersions, type ChartInfo, type ChartVersion } from './charts.js'

export interface RepoEntry {
  name: string
  url: string
}

export interface HelmPaths {
  repositoryConfig: string
  repositoryCache: string
}

export function helmPaths(
  env: NodeJS.ProcessEnv,
  flags: { repositoryConfig?: string; repositoryCache?: string }
): HelmPaths {
  const home = env.HOME ?? '/root'
  const configHome =
    env.HELM_CONFIG_HOME || path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'helm')
  const cacheHome = env.HELM_CACHE_HOME || path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'helm')
  return {
    repositoryConfig:
      flags.repositoryConfig || env.HELM_REPOSITORY_CONFIG || path.join(configHome, 'repositories.yaml'),
    repositoryCache: flags.repositoryCache || env.HELM_REPOSITORY_CACHE || path.join(cacheHome, 'repository')
  }
}

const normUrl = (u: string): string => u.replace(/\/+$/, '')

export function readRepos(paths: HelmPaths): RepoEntry[] {
  if (!existsSync(paths.repositoryConfig)) return []
  const doc = parseYaml(readFileSync(paths.repositoryConfig, 'utf8')) as { repositories?: RepoEntry[] } | null
  return (doc?.repositories ?? []).map(r => ({ name: r.name, url: r.url }))
}

function writeRepos(paths: HelmPaths, repos: RepoEntry[]): void {
  mkdirSync(path.dirname(paths.repositoryConfig), { recursive: true })
  const doc = {
    apiVersion: '',
    generated: '0001-01-01T00:00:00Z',
    repositories: repos.map(r => ({
      caFile: '',
      certFile: '',
      insecure_skip_tls_verify: false,
      keyFile: '',
      name: r.name,
      pass_credentials_all: false,
      password: '',
      url: r.url,
      username: ''
    }))
  }
  writeFileSync(paths.repositoryConfig, stringify(doc), { mode: 0o600 })
}

/** The index the simulated repository serves (helm's index.yaml shape). */
function indexFor(url: string): string {
  if (normUrl(url) !== NVIDIA_REPO_URL) {
    throw new Error(
      `looks like "${url}" is not a valid chart repository or cannot be reached: Get "${normUrl(url)}/index.yaml": dial tcp: lookup ${new URL(url).hostname}: no such host`
    )
  }
  const entries: Record<string, unknown[]> = {}
  for (const c of Object.values(CHARTS)) {
    entries[c.name] = c.versions.map(v => ({
      apiVersion: 'v2',
      appVersion: v.appVersion,
      created: v.created,
      description: c.description,
      home: c.home,
      kubeVersion: c.kubeVersion,
      name: c.name,
      urls: [`${NVIDIA_REPO_URL}/charts/${c.name}-${v.version}.tgz`],
      version: v.version
    }))
  }
  return stringify({ apiVersion: 'v1', entries, generated: '2026-08-20T12:00:00Z' })
}

function downloadIndex(paths: HelmPaths, repo: RepoEntry): void {
  const text = indexFor(repo.url)
  mkdirSync(paths.repositoryCache, { recursive: true })
  writeFileSync(path.join(paths.repositoryCache, `${repo.name}-index.yaml`), text)
  const charts = Object.keys(CHARTS).join('\n') + '\n'
  writeFileSync(path.join(paths.repositoryCache, `${repo.name}-charts.txt`), charts)
}

/** `helm repo add`; returns the line helm prints. */
export function repoAdd(paths: HelmPaths, name: string, url: string, forceUpdate: boolean): string {
  const repos = readRepos(paths)
  const existing = repos.find(r => r.name === name)
  if (existing && !forceUpdate) {
    if (normUrl(existing.url) === normUrl(url))
      return `"${name}" already exists with the same configuration, skipping`
    throw new Error(`repository name (${name}) already exists, please specify a different name`)
  }
  const entry = { name, url }
  downloadIndex(paths, entry)
  writeRepos(paths, [...repos.filter(r => r.name !== name), entry])
  return `"${name}" has been added to your repositories`
}

/** `helm repo update`; returns the lines helm prints. */
export function repoUpdate(paths: HelmPaths, names: string[]): string[] {
  const repos = readRepos(paths)
  if (repos.length === 0) throw new Error('no repositories found. You must add one before updating')
  const chosen = names.length ? repos.filter(r => names.includes(r.name)) : repos
  for (const n of names)
    if (!repos.some(r => r.name === n))
      throw new Error(`no repositories found matching '${n}'.  Nothing will be updated`)
  const lines = ['Hang tight while we grab the latest from your chart repositories...']
  for (const r of chosen) {
    try {
      downloadIndex(paths, r)
      lines.push(`...Successfully got an update from the "${r.name}" chart repository`)
    } catch (e) {
      lines.push(
        `...Unable to get an update from the "${r.name}" chart repository (${r.url}):\n\t${(e as Error).message}`
      )
    }
  }
  lines.push('Update Complete. ⎈Happy Helming!⎈')
  return lines
}

/** Resolves `repo/chart` and --version against the cached index, with helm's errors. */
export function resolveChart(
  paths: HelmPaths,
  ref: string,
  version: string
): { chart: ChartInfo; version: ChartVersion } {
  const slash = ref.indexOf('/')
  if (slash < 0) {
    throw new Error(`non-absolute URLs should be in form of repo_name/path_to_chart, got: ${ref}`)
  }
  const repoName = ref.slice(0, slash)
  const chartName = ref.slice(slash + 1)
  const repo = readRepos(paths).find(r => r.name === repoName)
  if (!repo) throw new Error(`repo ${repoName} not found`)
  const indexFile = path.join(paths.repositoryCache, `${repoName}-index.yaml`)
  if (!existsSync(indexFile)) {
    throw new Error(
      `no cached repo found. (try 'helm repo update'): open ${indexFile}: no such file or directory`
    )
  }
  const index = parseYaml(readFileSync(indexFile, 'utf8')) as {
    entries?: Record<string, Array<{ version: string }>>
  }
  const entries = index.entries?.[chartName]
  const chart = CHARTS[chartName]
  const notFound = (why: string): Error =>
    new Error(
      `chart "${chartName}" matching ${version} not found in ${repoName} index. (try 'helm repo update'): ${why}`
    )
  if (!entries || !chart) throw notFound('no chart name found')
  const want = version.trim().replace(/^v/, '')
  const available = entries.map(e => e.version).sort((a, b) => -compareVersions(a, b))
  const picked = want ? available.find(v => v.replace(/^v/, '') === want) : available[0]
  const info = picked ? chart.versions.find(v => v.version === picked) : undefined
  if (!info) throw notFound(`no chart version found for ${chartName}-${version}`)
  return { chart, version: info }
}
