import { startRdmaWorld } from './verify-sim-world.js'
it('debug', async () => {
  const w = await startRdmaWorld({ nodes: 1, stack: { ibNodeConfig: false } })
  try {
    const pods = w.sim.store.list(w.sim.store.type('', 'pods')!, { namespace: 'kube-system' }).items as any[]
    for (const p of pods.filter(x => x.metadata.labels?.name === 'rdma-shared-dp-ds')) {
      console.log(p.metadata.name, JSON.stringify(p.status.initContainerStatuses), JSON.stringify(p.spec.initContainers?.map((c: any) => c.name)))
      console.log(w.sim.logs('kube-system', p.metadata.name, 'wait-for-ib-node-config'))
    }
    console.log(JSON.stringify(w.sim.hardware.all().map(h => [h.nodeName, Object.keys(h.files)])))
  } finally { await w.close() }
})
