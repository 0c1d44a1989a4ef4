// What the world accepts in an agent pool body (`properties` of AgentPool, api 2026-06-01): the
// 55 properties of ManagedClusterAgentPoolProfileProperties with their JSON types, ranges and
// enums, transcribed from the spec excerpt in the shared fixtures (definitions-excerpt.json; a
// test cross-checks this table against it). Enums the excerpt only references (OSSKU,
// AgentPoolMode, ...) carry the values of @azure/arm-containerservice 25.5's `Known*` enums,
// built from the same spec. Object-typed properties defined outside the excerpt are checked as
// objects only.

export interface PropSchema {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array'
  enum?: string[]
  minimum?: number
  maximum?: number
  readOnly?: boolean
  items?: PropSchema
  additionalProperties?: PropSchema
  properties?: Record<string, PropSchema>
}

const str: PropSchema = { type: 'string' }
const int: PropSchema = { type: 'integer' }
const bool: PropSchema = { type: 'boolean' }
const obj: PropSchema = { type: 'object' }
const strMap: PropSchema = { type: 'object', additionalProperties: str }
const strList: PropSchema = { type: 'array', items: str }
const oneOf = (...values: string[]): PropSchema => ({ type: 'string', enum: values })

export const GPU_DRIVER = oneOf('Install', 'None')
export const GPU_PROFILE: PropSchema = { type: 'object', properties: { driver: GPU_DRIVER } }

export const AGENT_POOL_PROPERTIES: Record<string, PropSchema> = {
  eTag: { ...str, readOnly: true },
  count: int,
  vmSize: str,
  osDiskSizeGB: { type: 'integer', minimum: 0, maximum: 2048 },
  osDiskType: oneOf('Managed', 'Ephemeral'),
  kubeletDiskType: oneOf('OS', 'Temporary'),
  workloadRuntime: oneOf('OCIContainer', 'WasmWasi', 'KataVmIsolation'),
  messageOfTheDay: str,
  vnetSubnetID: str,
  podSubnetID: str,
  podIPAllocationMode: oneOf('DynamicIndividual', 'StaticBlock'),
  maxPods: int,
  osType: oneOf('Linux', 'Windows'),
  osSKU: oneOf(
    'Ubuntu',
    'AzureLinux',
    'AzureLinux3',
    'CBLMariner',
    'Windows2019',
    'Windows2022',
    'Ubuntu2204',
    'Windows2025',
    'Ubuntu2404',
    'AzureContainerLinux'
  ),
  maxCount: int,
  minCount: int,
  enableAutoScaling: bool,
  scaleDownMode: oneOf('Delete', 'Deallocate'),
  type: oneOf('VirtualMachineScaleSets', 'AvailabilitySet', 'VirtualMachines'),
  mode: oneOf('System', 'User', 'Gateway'),
  orchestratorVersion: str,
  currentOrchestratorVersion: { ...str, readOnly: true },
  nodeImageVersion: str,
  upgradeSettings: obj,
  provisioningState: { ...str, readOnly: true },
  powerState: obj,
  availabilityZones: strList,
  enableNodePublicIP: bool,
  nodePublicIPPrefixID: str,
  scaleSetPriority: oneOf('Spot', 'Regular'),
  scaleSetEvictionPolicy: oneOf('Delete', 'Deallocate'),
  spotMaxPrice: { type: 'number' },
  tags: strMap,
  nodeLabels: strMap,
  nodeTaints: strList,
  proximityPlacementGroupID: str,
  kubeletConfig: obj,
  linuxOSConfig: obj,
  enableEncryptionAtHost: bool,
  enableUltraSSD: bool,
  enableFIPS: bool,
  gpuInstanceProfile: oneOf('MIG1g', 'MIG2g', 'MIG3g', 'MIG4g', 'MIG7g'),
  creationData: obj,
  capacityReservationGroupID: str,
  hostGroupID: str,
  networkProfile: obj,
  windowsProfile: obj,
  securityProfile: obj,
  gpuProfile: GPU_PROFILE,
  gatewayProfile: obj,
  artifactStreamingProfile: obj,
  virtualMachinesProfile: obj,
  virtualMachineNodesStatus: { type: 'array', items: obj },
  status: obj,
  localDNSProfile: obj
}

/** Pool names (path parameter agentPoolName). */
export const AGENT_POOL_NAME = /^[a-z][a-z0-9]{0,11}$/
/** Cluster names (path parameter resourceName). */
export const CLUSTER_NAME = /^[a-zA-Z0-9]$|^[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]$/
