// Regenerates action.yml's inputs/outputs and the README's input and output tables from
// src/settings/input-definitions.ts (the single source). `--check` fails instead of writing
// when either file is out of date (a test runs it).
import { build } from 'esbuild'
import { readFileSync, writeFileSync } from 'node:fs'
import { stringify } from 'yaml'

const bundled = await build({
  entryPoints: ['src/settings/input-definitions.ts'],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node'
})
const { INPUTS, OUTPUTS } = await import(
  'data:text/javascript;base64,' + Buffer.from(bundled.outputFiles[0].text).toString('base64')
)

const header = `# aks-rdma-action: turns an AKS cluster into a working RDMA/InfiniBand GPU cluster (NVIDIA Network
# Operator, NodeFeatureRule, NicClusterPolicy, ib-node-config, RDMA shared device plugin, GPU Operator),
# verifies and benchmarks it, and checks it for drift. Inputs and outputs are generated from
# src/settings/input-definitions.ts by \`npm run docs\`.
`
const action = {
  name: 'AKS RDMA / InfiniBand',
  description:
    'Set up, verify, benchmark and drift-check RDMA/InfiniBand GPU node pools on Azure Kubernetes Service.',
  author: 'aks-rdma-action',
  branding: { icon: 'zap', color: 'green' },
  inputs: Object.fromEntries(
    INPUTS.map(i => [
      i.name,
      {
        description: i.description,
        required: false,
        ...(i.default !== undefined ? { default: i.default } : {})
      }
    ])
  ),
  outputs: Object.fromEntries(OUTPUTS.map(o => [o.name, { description: o.description }])),
  runs: { using: 'node24', main: 'dist/index.js', post: 'dist/post.js', 'post-if': 'always()' }
}
const actionYml = header + stringify(action, { lineWidth: 0 })

const cell = s => String(s).replace(/\|/g, '\\|')
const inputsTable = [
  '| Input | Default | Description |',
  '| --- | --- | --- |',
  ...INPUTS.map(
    i =>
      `| \`${i.name}\` | ${i.default !== undefined ? '`' + cell(i.default) + '`' : ''} | ${cell(i.description)}${i.values ? ` (${i.values.map(v => '`' + v + '`').join(' \\| ')})` : ''} |`
  )
].join('\n')
const outputsTable = [
  '| Output | Description |',
  '| --- | --- |',
  ...OUTPUTS.map(o => `| \`${o.name}\` | ${cell(o.description)} |`)
].join('\n')

function replaceBetween(text, marker, content) {
  const start = `<!-- ${marker}:start -->`
  const end = `<!-- ${marker}:end -->`
  const a = text.indexOf(start)
  const b = text.indexOf(end)
  if (a < 0 || b < 0) throw new Error(`README.md: markers ${start} / ${end} missing`)
  return text.slice(0, a + start.length) + '\n' + content + '\n' + text.slice(b)
}

const readme = readFileSync('README.md', 'utf8')
const newReadme = replaceBetween(replaceBetween(readme, 'inputs', inputsTable), 'outputs', outputsTable)
const check = process.argv.includes('--check')
const stale = []
if (readFileSync('action.yml', 'utf8') !== actionYml) stale.push('action.yml')
if (readme !== newReadme) stale.push('README.md')
if (check) {
  if (stale.length) {
    console.error(
      `${stale.join(' and ')} out of date with src/settings/input-definitions.ts: run "npm run docs"`
    )
    process.exit(1)
  }
  console.log('action.yml and README tables are current')
} else {
  writeFileSync('action.yml', actionYml)
  writeFileSync('README.md', newReadme)
}
