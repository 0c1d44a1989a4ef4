# The official Python Kubernetes client (python3-kubernetes) driven through everyday flows against
# an API server: list (selectors, pagination, a bad continue token), watch (watch=True), server-side
# apply (create, no-op, conflict, force), patch (strategic and merge), delete (graceful pods,
# foreground cascade, a Job's pods orphaned by default, namespace termination) and exec over
# WebSocket. Usage: kube_flows.py KUBECONFIG NAMESPACE; prints one JSON object of what each flow saw.
import json
import sys
import time

from kubernetes import client, config, watch
from kubernetes.dynamic import DynamicClient
from kubernetes.stream import stream

kubeconfig, ns = sys.argv[1], sys.argv[2]
config.load_kube_config(kubeconfig)
api = client.ApiClient()
core = client.CoreV1Api(api)
apps = client.AppsV1Api(api)
batch = client.BatchV1Api(api)
dyn = DynamicClient(api)
out = {}


def status_of(err):
    body = json.loads(err.body) if err.body else {}
    return {"code": err.status, "reason": body.get("reason"), "message": body.get("message")}


def until(what, fn, limit=180):
    deadline = time.time() + limit
    while time.time() < deadline:
        if fn():
            return True
        time.sleep(0.05)
    raise RuntimeError("timed out waiting for " + what)


def gone(read):
    try:
        read()
        return False
    except client.ApiException as e:
        return e.status == 404


def flow_list():
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
    # Every namespace gets the root CA ConfigMap from the controller manager; wait for it.
    until("kube-root-ca.crt", lambda: any(
        c.metadata.name == "kube-root-ca.crt" for c in core.list_namespaced_config_map(ns).items))
    for i in range(5):
        core.create_namespaced_config_map(ns, client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name="cm-%d" % i, labels={"tier": "a" if i < 3 else "b"})))
    first = core.list_namespaced_config_map(ns, limit=2)
    rest = core.list_namespaced_config_map(ns, limit=10, _continue=first.metadata._continue)
    out["list"] = {
        "names": sorted(c.metadata.name for c in core.list_namespaced_config_map(ns).items),
        "tierA": sorted(c.metadata.name for c in core.list_namespaced_config_map(ns, label_selector="tier=a").items),
        "byName": [c.metadata.name for c in core.list_namespaced_config_map(ns, field_selector="metadata.name=cm-4").items],
        "pages": [[c.metadata.name for c in first.items], [c.metadata.name for c in rest.items]],
        "remaining": first.metadata.remaining_item_count,
    }
    try:
        core.list_namespaced_config_map(ns, _continue="not-a-token!")
    except client.ApiException as e:
        out["list"]["badContinue"] = status_of(e)
    try:
        core.list_namespaced_config_map(ns, field_selector="data.key=x")
    except client.ApiException as e:
        out["list"]["badField"] = status_of(e)


def flow_watch():
    w = watch.Watch()
    start = core.list_namespaced_config_map(ns).metadata.resource_version
    core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="watched")))
    core.patch_namespaced_config_map("watched", ns, {"data": {"k": "v"}})
    core.delete_namespaced_config_map("watched", ns)
    seen = []
    for ev in w.stream(core.list_namespaced_config_map, ns, resource_version=start, timeout_seconds=5,
                       field_selector="metadata.name=watched"):
        seen.append(ev["type"])
        if ev["type"] == "DELETED":
            w.stop()
    out["watch"] = seen


def flow_apply():
    cms = dyn.resources.get(api_version="v1", kind="ConfigMap")
    body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "applied", "namespace": ns},
            "data": {"mode": "rdma"}}
    # 22.x's REST client sends an apply patch only as a serialized body (a dict is refused client-side).
    def ssa(obj, manager, force=False):
        return cms.server_side_apply(body=json.dumps(obj), name="applied", namespace=ns,
                                     field_manager=manager, force_conflicts=force)
    created = ssa(body, "py-flows")
    again = ssa(body, "py-flows")
    res = {"created": created.metadata.resourceVersion, "again": again.metadata.resourceVersion,
           "managers": [m["manager"] for m in created.metadata.managedFields]}
    other = dict(body, data={"mode": "ethernet"})
    try:
        ssa(other, "someone-else")
    except client.ApiException as e:
        res["conflict"] = status_of(e)
    forced = ssa(other, "someone-else", True)
    res["forced"] = forced.data["mode"]
    out["apply"] = res


def flow_patch():
    body = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="web"),
        spec=client.V1DeploymentSpec(
            selector=client.V1LabelSelector(match_labels={"app": "web"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "web"}),
                spec=client.V1PodSpec(containers=[client.V1Container(
                    name="web", image="busybox:1.36", command=["sh", "-c", "echo up; sleep infinity"])]))))
    d = apps.create_namespaced_deployment(ns, body)
    patched = apps.patch_namespaced_deployment("web", ns, {"spec": {"replicas": 2}})
    labelled = apps.patch_namespaced_deployment("web", ns, {"metadata": {"labels": {"tier": "front"}}})
    out["patch"] = {
        "defaults": {"strategy": d.spec.strategy.type, "maxSurge": d.spec.strategy.rolling_update.max_surge,
                     "revisionHistoryLimit": d.spec.revision_history_limit,
                     "progressDeadlineSeconds": d.spec.progress_deadline_seconds,
                     "pullPolicy": d.spec.template.spec.containers[0].image_pull_policy},
        "generation": [d.metadata.generation, patched.metadata.generation, labelled.metadata.generation],
        "replicas": patched.spec.replicas,
    }
    until("web ready", lambda: (apps.read_namespaced_deployment("web", ns).status.ready_replicas or 0) == 2)


def flow_exec():
    pod = core.list_namespaced_pod(ns, label_selector="app=web").items[0].metadata.name
    text = stream(core.connect_get_namespaced_pod_exec, pod, ns, command=["sh", "-c", "echo from-exec $HOSTNAME"],
                  stderr=True, stdin=False, stdout=True, tty=False)
    out["exec"] = {"pod": pod, "output": text}


def flow_delete():
    res = {}
    pod = core.list_namespaced_pod(ns, label_selector="app=web").items[0]
    deleted = core.delete_namespaced_pod(pod.metadata.name, ns)
    res["podDeletion"] = {"grace": deleted.metadata.deletion_grace_period_seconds,
                          "terminating": deleted.metadata.deletion_timestamp is not None}
    try:
        core.create_namespaced_pod(ns, client.V1Pod(metadata=client.V1ObjectMeta(name=pod.metadata.name),
                                                     spec=pod.spec))
    except client.ApiException as e:
        res["recreateAtOnce"] = status_of(e)
    until("pod gone", lambda: gone(lambda: core.read_namespaced_pod(pod.metadata.name, ns)))
    job = batch.create_namespaced_job(ns, client.V1Job(
        metadata=client.V1ObjectMeta(name="once"),
        spec=client.V1JobSpec(template=client.V1PodTemplateSpec(spec=client.V1PodSpec(
            restart_policy="Never", containers=[client.V1Container(name="c", image="busybox:1.36",
                                                                   command=["sh", "-c", "sleep 3600"])])))))
    res["jobSelector"] = job.spec.selector.match_labels
    until("job pod", lambda: len(core.list_namespaced_pod(ns, label_selector="job-name=once").items) == 1)
    batch.delete_namespaced_job("once", ns)
    until("job gone", lambda: gone(lambda: batch.read_namespaced_job("once", ns)))
    left = core.list_namespaced_pod(ns, label_selector="job-name=once").items
    res["jobPodsOrphaned"] = [len(left), left[0].metadata.owner_references if left else "none"]
    # A delete that does not remove the object answers with the object (typed V1Status by the client: read raw).
    fg = json.loads(apps.delete_namespaced_deployment("web", ns, propagation_policy="Foreground",
                                                      _preload_content=False).data)
    res["foreground"] = {"kind": fg.get("kind"), "finalizers": fg["metadata"].get("finalizers")}
    until("deployment gone", lambda: gone(lambda: apps.read_namespaced_deployment("web", ns)))
    terminating = json.loads(core.delete_namespace(ns, _preload_content=False).data)
    res["namespace"] = {"phase": terminating["status"]["phase"]}
    try:
        core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="late")))
    except client.ApiException as e:
        res["createInTerminating"] = status_of(e)
    until("namespace gone", lambda: gone(lambda: core.read_namespace(ns)))
    out["delete"] = res


for f in (flow_list, flow_watch, flow_apply, flow_patch, flow_exec, flow_delete):
    try:
        f()
    except Exception as e:  # report every flow, even after one fails
        out.setdefault("errors", []).append("%s: %s" % (f.__name__, e))
print(json.dumps(out, default=str))
