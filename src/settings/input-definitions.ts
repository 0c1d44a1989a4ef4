// Every input of the action (and of the CLI, which takes the same names): its description,
// default and kind. action.yml is checked against this list by a test, so the two never drift.

export type InputKind = 'string' | 'boolean' | 'enum' | 'integer' | 'number' | 'duration' | 'path' | 'secret'

export interface InputDefinition {
  name: string
  description: string
  default?: string
  kind: InputKind
  values?: readonly string[]
}

export const INPUTS: readonly InputDefinition[] = [
  {
    name: 'mode',
    kind: 'enum',
    values: ['apply', 'verify', 'drift', 'plan'],
    default: 'apply',
    description:
      'What to do: apply the stack and verify it, verify only, report drift only (read-only), or print the plan (no credentials, no network).'
  },
  // Azure authentication
  {
    name: 'client-id',
    kind: 'string',
    description: 'Entra application (client) ID used for OIDC or a client secret.'
  },
  { name: 'tenant-id', kind: 'string', description: 'Entra tenant ID.' },
  { name: 'subscription-id', kind: 'string', description: 'Azure subscription that holds the cluster.' },
  { name: 'client-secret', kind: 'secret', description: 'Client secret (prefer OIDC). Never logged.' },
  {
    name: 'creds',
    kind: 'secret',
    description:
      'azure/login-style JSON with clientId, clientSecret, tenantId, subscriptionId. Ignored (with a warning) for fields also given as inputs.'
  },
  {
    name: 'auth-type',
    kind: 'enum',
    values: ['auto', 'oidc', 'secret', 'cli'],
    default: 'auto',
    description:
      'How to authenticate: auto picks GitHub OIDC, then a client secret, then an Azure CLI session.'
  },
  {
    name: 'audience',
    kind: 'string',
    default: 'api://AzureADTokenExchange',
    description: 'Audience of the GitHub OIDC token exchanged with Entra.'
  },
  {
    name: 'environment',
    kind: 'enum',
    values: ['AzureCloud', 'AzureUSGovernment', 'AzureChinaCloud'],
    default: 'AzureCloud',
    description: 'Azure cloud.'
  },
  {
    name: 'arm-endpoint',
    kind: 'string',
    description: 'Override of the Azure Resource Manager endpoint (other clouds, the simulator).'
  },
  {
    name: 'authority-host',
    kind: 'string',
    description: 'Override of the Entra authority host (other clouds, the simulator).'
  },
  // Cluster
  {
    name: 'resource-group',
    kind: 'string',
    description:
      'Resource group of the AKS cluster (required except in plan mode, where a placeholder is used).'
  },
  { name: 'cluster-name', kind: 'string', description: 'Name of the AKS cluster.' },
  { name: 'location', kind: 'string', description: 'Azure region; required with create-cluster.' },
  {
    name: 'create-cluster',
    kind: 'boolean',
    default: 'false',
    description:
      'Create a minimal cluster when it does not exist (an existing one is reused, never modified).'
  },
  {
    name: 'kubernetes-version',
    kind: 'string',
    description: 'Kubernetes version for a created cluster (e.g. 1.33).'
  },
  {
    name: 'admin-credentials',
    kind: 'boolean',
    default: 'false',
    description: 'Use cluster admin credentials instead of user credentials.'
  },
  // Node pool
  {
    name: 'node-pool',
    kind: 'string',
    default: 'rdmapool',
    description: 'Name of the RDMA node pool (1-12 lowercase letters and digits, starting with a letter).'
  },
  {
    name: 'vm-size',
    kind: 'string',
    default: 'Standard_ND96isr_H100_v5',
    description: 'RDMA-capable (InfiniBand) VM size of the pool.'
  },
  {
    name: 'node-count',
    kind: 'integer',
    default: '2',
    description: 'Number of nodes in the pool (1-1000; at least 2 with benchmark).'
  },
  {
    name: 'os-sku',
    kind: 'enum',
    values: ['Ubuntu', 'Ubuntu2204', 'Ubuntu2404'],
    default: 'Ubuntu',
    description: 'Node OS SKU. Ubuntu means 22.04 before Kubernetes 1.35 and 24.04 from 1.35.'
  },
  { name: 'node-labels', kind: 'string', description: 'Extra node labels, k=v,k2=v2.' },
  { name: 'node-taints', kind: 'string', description: 'Node taints, k=v:NoSchedule,k2=v2:NoExecute.' },
  { name: 'zones', kind: 'string', description: 'Availability zones, comma separated (e.g. 1,2).' },
  {
    name: 'register-feature',
    kind: 'boolean',
    default: 'true',
    description: 'Register Microsoft.ContainerService/AKSInfinibandSupport and wait until it is Registered.'
  },
  // Stack
  {
    name: 'network-operator-version',
    kind: 'string',
    default: 'v26.1.0',
    description: 'NVIDIA Network Operator chart version (pinned).'
  },
  {
    name: 'gpu-operator-version',
    kind: 'string',
    default: 'v26.3.3',
    description: 'NVIDIA GPU Operator chart version (pinned).'
  },
  {
    name: 'doca-driver-version',
    kind: 'string',
    default: 'doca3.2.0-25.10-1.2.8.0-2',
    description: 'DOCA/OFED driver version in the NicClusterPolicy.'
  },
  {
    name: 'rdma-device-plugin-image',
    kind: 'string',
    default: 'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3',
    description: 'Image of the RDMA shared device plugin.'
  },
  {
    name: 'rdma-resource-name',
    kind: 'string',
    default: 'hca_shared_devices_a',
    description: 'Extended resource name: nodes advertise rdma/<name>.'
  },
  {
    name: 'rdma-hca-max',
    kind: 'integer',
    default: '1000',
    description: 'Pods that may share one HCA (rdmaHcaMax).'
  },
  {
    name: 'use-host-mofed',
    kind: 'boolean',
    default: 'false',
    description:
      'GPU Operator driver.rdma.useHostMofed. Keep false: the Network Operator installs the driver (NVIDIA advises true only for a driver installed on the host).'
  },
  {
    name: 'helm-version',
    kind: 'string',
    default: 'v3.19.0',
    description: 'Pinned helm 3 release; installed and checksum-verified when the helm on PATH differs.'
  },
  {
    name: 'network-operator-values',
    kind: 'path',
    description: 'YAML file merged over the built-in Network Operator values.'
  },
  {
    name: 'gpu-operator-values',
    kind: 'path',
    description: 'YAML file merged over the built-in GPU Operator values.'
  },
  {
    name: 'nic-cluster-policy',
    kind: 'path',
    description: 'YAML file replacing the built-in NicClusterPolicy spec.'
  },
  {
    name: 'force-conflicts',
    kind: 'boolean',
    default: 'false',
    description:
      'Take ownership of fields another field manager holds (server-side apply force) instead of failing.'
  },
  // Waiting
  {
    name: 'timeout',
    kind: 'duration',
    default: '60m',
    description: 'Time limit for the whole run (90s, 25m, 1h, 1h30m).'
  },
  { name: 'step-timeout', kind: 'duration', default: '25m', description: 'Time limit for each step.' },
  {
    name: 'retries',
    kind: 'integer',
    default: '3',
    description: 'Retries of transient API errors (5xx, 429, resets).'
  },
  {
    name: 'rollout',
    kind: 'enum',
    values: ['pipelined', 'sequential'],
    default: 'pipelined',
    description: 'pipelined gates node-level work per node; sequential waits for each step on every node.'
  },
  // Benchmark
  {
    name: 'benchmark',
    kind: 'boolean',
    default: 'true',
    description: 'Run perftest benchmarks between RDMA nodes.'
  },
  {
    name: 'benchmark-image',
    kind: 'string',
    default: 'docker.io/mellanox/cuda-perftest:latest',
    description:
      'Image with perftest built with CUDA (GPUDirect needs it). The default is the image NVIDIA documents for GPUDirect RDMA tests; it publishes no version tags, so pin it by digest (image@sha256:...) for reproducible runs.'
  },
  {
    name: 'benchmark-gpudirect',
    kind: 'boolean',
    default: 'true',
    description: 'Benchmark GPU memory (--use_cuda); requires a CUDA build of perftest.'
  },
  {
    name: 'benchmark-scope',
    kind: 'enum',
    values: ['pair', 'fleet'],
    default: 'pair',
    description: 'pair: two nodes; fleet: every node in parallel rounds of disjoint pairs.'
  },
  {
    name: 'min-bandwidth-ratio',
    kind: 'number',
    default: '0.9',
    description: 'Fraction of the link rate a pair must reach.'
  },
  {
    name: 'fail-on-drift',
    kind: 'boolean',
    default: 'true',
    description: 'In drift mode, fail the step when drift is found.'
  },
  {
    name: 'cleanup',
    kind: 'enum',
    values: ['none', 'node-pool', 'cluster'],
    default: 'none',
    description:
      'Post step: delete the node pool or cluster this run created (never anything it did not create).'
  }
]

export interface OutputDefinition {
  name: string
  description: string
}

export const OUTPUTS: readonly OutputDefinition[] = [
  { name: 'result', description: 'success, failure or drifted.' },
  { name: 'node-pool-action', description: 'created or reused.' },
  { name: 'rdma-nodes', description: 'Number of RDMA nodes that passed verification.' },
  { name: 'bandwidth-gbps', description: 'Lowest pair average ib_write_bw bandwidth, Gb/s.' },
  { name: 'latency-us', description: 'Typical ib_write_lat latency, microseconds.' },
  { name: 'drifted', description: 'true when drift mode found a difference.' },
  { name: 'report-path', description: 'Path of the JSON report.' },
  {
    name: 'kubeconfig-path',
    description: 'Path of the kubeconfig written for this run (removed by the post step).'
  }
]
