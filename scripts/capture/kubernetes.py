"""kubectl and helm: real client failures here, cluster output synthesized.

There is no cluster on this machine, so the real kubectl runs give its real failures
(connection refused on get/logs/describe, the openapi validation error on apply). What
a cluster would answer (get tables, describe, logs, apply results) and all of helm (not
installable here) is built from the documented formats with a seeded generator: the
tables are laid out like kubectl's tabwriter (columns padded to the widest cell plus
three spaces). Signals are the rows the generator made unhealthy, its warning events,
its error log lines and its failing resources.
"""

from __future__ import annotations

import random
from typing import Any

from capture._lib import Workspace, sig, synthesized

FAMILY_K = "kubectl"
FAMILY_H = "helm"
KUBECTL_VERSION = "Client Version: v1.31.2"
HELM_VERSION = 'version.BuildInfo{Version:"v3.16.2"}'
KUBECTL_DOC = "https://kubernetes.io/docs/reference/kubectl/generated/kubectl_get/ (table columns, -o wide)"

NAMESPACES = ["payments", "orders", "catalog", "search", "identity", "platform", "monitoring", "ingress-nginx"]
APPS = ["api", "worker", "consumer", "scheduler", "gateway", "indexer", "exporter", "cache", "web", "sync"]


def _table(header: list[str], rows: list[list[str]], pad: int = 3) -> str:
    widths = [max(len(header[k]), *(len(r[k]) for r in rows)) for k in range(len(header))]
    out = []
    for row in [header, *rows]:
        cells = [row[k].ljust(widths[k] + pad) for k in range(len(row) - 1)]
        out.append(("".join(cells) + row[-1]).rstrip())
    return "\n".join(out) + "\n"


def _uitable(header: list[str], rows: list[list[str]]) -> str:
    """helm's table layout (gosuri/uitable): cells padded to the column width, joined by a tab."""
    widths = [max(len(header[k]), *(len(r[k]) for r in rows)) for k in range(len(header))]
    out = []
    for row in [header, *rows]:
        out.append("\t".join(row[k].ljust(widths[k]) for k in range(len(row))).rstrip())
    return "\n".join(out) + "\n"


def _suffix(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(n))


def _age(rng: random.Random) -> str:
    return rng.choice(["3d4h", "12d", "47h", "5d17h", "26h", "8d", "61d", "2d9h", "19h", "33d"])


def _nodes(n: int) -> list[str]:
    return [f"ip-10-0-{k // 4}-{10 + k * 7 % 200}.ec2.internal" for k in range(n)]


class Cluster:
    """A seeded cluster: deployments, pods with states, events."""

    def __init__(self, seed: int, n_deploy: int) -> None:
        rng = random.Random(seed)
        self.rng = rng
        self.nodes = _nodes(14)
        self.deployments: list[dict[str, Any]] = []
        self.pods: list[dict[str, Any]] = []
        bad_states = [
            ("CrashLoopBackOff", "0/1"),
            ("Pending", "0/1"),
            ("ImagePullBackOff", "0/1"),
            ("Error", "0/1"),
            ("OOMKilled", "0/1"),
            ("Init:0/2", "0/1"),
            ("ContainerCreating", "0/1"),
            ("Terminating", "1/1"),
            ("Running", "1/2"),
        ]
        bad_at = set(rng.sample(range(n_deploy), min(11, n_deploy // 3)))
        for d in range(n_deploy):
            ns = NAMESPACES[d % len(NAMESPACES)]
            name = f"{ns.split('-')[0]}-{APPS[(d * 7) % len(APPS)]}" + (f"-{d}" if d >= len(NAMESPACES) * 2 else "")
            replicas = rng.choice([1, 2, 3, 3, 4, 6])
            rs_hash = f"{rng.getrandbits(40):010x}"[:10]
            dep = {"ns": ns, "name": name, "replicas": replicas, "ready": replicas, "age": _age(rng)}
            containers = 2 if name.endswith("-api") and rng.random() < 0.3 else 1
            for _ in range(replicas):
                pod = {
                    "ns": ns,
                    "name": f"{name}-{rs_hash}-{_suffix(rng, 5)}",
                    "ready": f"{containers}/{containers}",
                    "status": "Running",
                    "restarts": "0" if rng.random() < 0.8 else f"{rng.randint(1, 3)} ({rng.randint(2, 40)}h ago)",
                    "age": dep["age"],
                    "ip": f"10.42.{rng.randint(0, 13)}.{rng.randint(2, 250)}",
                    "node": rng.choice(self.nodes),
                    "deploy": name,
                }
                self.pods.append(pod)
            if d in bad_at:
                status, ready = bad_states[len([x for x in bad_at if x < d]) % len(bad_states)]
                pod = self.pods[-1]
                pod["status"], pod["ready"] = status, ready
                if status == "CrashLoopBackOff":
                    pod["restarts"] = f"{rng.randint(12, 90)} ({rng.randint(1, 5)}m{rng.randint(0, 59)}s ago)"
                elif status in ("Error", "OOMKilled"):
                    pod["restarts"] = f"{rng.randint(3, 9)} ({rng.randint(1, 9)}m ago)"
                if status == "Pending":
                    pod["ip"], pod["node"] = "<none>", "<none>"
                if status != "Terminating":
                    dep["ready"] = replicas - 1
            self.deployments.append(dep)
        # Finished jobs (Completed pods).
        for k in range(12):
            ns = NAMESPACES[k % 3]
            self.pods.append(
                {
                    "ns": ns,
                    "name": f"{ns}-nightly-report-2903{k:02d}-{_suffix(rng, 5)}",
                    "ready": "0/1",
                    "status": "Completed",
                    "restarts": "0",
                    "age": f"{k + 1}d",
                    "ip": f"10.42.{rng.randint(0, 13)}.{rng.randint(2, 250)}",
                    "node": rng.choice(self.nodes),
                    "deploy": "",
                }
            )
        self.pods.sort(key=lambda p: (p["ns"], p["name"]))

    def bad_pods(self) -> list[dict[str, Any]]:
        return [
            p
            for p in self.pods
            if not (
                p["status"] == "Completed"
                or (p["status"] == "Running" and p["ready"].split("/")[0] == p["ready"].split("/")[1])
            )
        ]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    fixtures: list[dict[str, Any]] = []
    fixtures += _real(ws)
    cl = Cluster(11, 96)
    fixtures += [
        _get_pods_wide(cl),
        _get_pods_small(),
        _get_deployments(cl),
        _get_events(cl),
        _describe_pod(),
        _describe_pods_many(),
        _logs(),
        _apply_dir(),
    ]
    fixtures += [_helm_list(), _helm_install(), _helm_upgrade_fail(), _helm_template()]
    return fixtures


# ----------------------------------------------------------------- real runs


def _real(ws: Workspace) -> list[dict[str, Any]]:
    if not ws.which("kubectl"):
        return []
    version = ws.version(["kubectl", "version", "--client"])
    # No kubeconfig: kubectl falls back to localhost:8080, where nothing listens.
    env = dict(ws.env, KUBECONFIG=str(ws.path("no-kubeconfig")))
    out: list[dict[str, Any]] = []
    refused = "The connection to the server localhost:8080 was refused"
    r = ws.run("kubectl get pods -A -o wide", env=env)
    out.append(
        ws.fixture(
            "kubectl-get-connection-refused",
            "devops/kubectl-get",
            r,
            family=FAMILY_K,
            signals=[sig("error", refused), sig("endpoint", "localhost:8080")],
            signal_source="the API server address kubectl falls back to with no kubeconfig (nothing listens there)",
            tool_version=version,
        )
    )
    ws.write(
        "manifests/web.yaml",
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - name: web
                image: nginx:1.27
        """,
    )
    r = ws.run("kubectl apply -f manifests/web.yaml", env=env)
    out.append(
        ws.fixture(
            "kubectl-apply-no-cluster",
            "devops/kubectl-apply",
            r,
            family=FAMILY_K,
            signals=[sig("error", 'error validating "manifests/web.yaml"'), sig("hint", "--validate=false")],
            signal_source="the manifest applied; with no API server the openapi download fails",
            tool_version=version,
        )
    )
    r = ws.run("kubectl logs deploy/web --tail=50", env=env)
    out.append(
        ws.fixture(
            "kubectl-logs-no-cluster",
            "devops/kubectl-logs",
            r,
            family=FAMILY_K,
            signals=[sig("error", refused)],
            signal_source="no API server at the fallback address",
            tool_version=version,
        )
    )
    return out


# ----------------------------------------------------------------- kubectl


def _pod_rows(pods: list[dict[str, Any]], wide: bool, all_ns: bool) -> tuple[list[str], list[list[str]]]:
    header = ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    if wide:
        header += ["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]
    if all_ns:
        header = ["NAMESPACE", *header]
    rows = []
    for p in pods:
        row = [p["name"], p["ready"], p["status"], p["restarts"], p["age"]]
        if wide:
            row += [p["ip"], p["node"], "<none>", "<none>"]
        if all_ns:
            row = [p["ns"], *row]
        rows.append(row)
    return header, rows


def _get_pods_wide(cl: Cluster) -> dict[str, Any]:
    header, rows = _pod_rows(cl.pods, wide=True, all_ns=True)
    bad = cl.bad_pods()
    return synthesized(
        "kubectl-get-pods-wide-all",
        "devops/kubectl-get",
        family=FAMILY_K,
        command="kubectl get pods -A -o wide",
        exit_code=0,
        stdout=_table(header, rows),
        signals=[sig("pod", p["name"]) for p in bad] + [sig("status", "CrashLoopBackOff"), sig("status", "Pending")],
        format_source=KUBECTL_DOC,
        tool_version=KUBECTL_VERSION,
    )


def _get_pods_small() -> dict[str, Any]:
    cl = Cluster(5, 4)
    pods = [p for p in cl.pods if p["ns"] == "payments"] or cl.pods[:6]
    header, rows = _pod_rows(pods, wide=False, all_ns=False)
    return synthesized(
        "kubectl-get-pods-small",
        "devops/kubectl-get",
        family=FAMILY_K,
        command="kubectl get pods -n payments",
        exit_code=0,
        stdout=_table(header, rows),
        signals=[sig("pod", p["name"]) for p in pods],
        format_source=KUBECTL_DOC,
        tool_version=KUBECTL_VERSION,
    )


def _get_deployments(cl: Cluster) -> dict[str, Any]:
    header = ["NAMESPACE", "NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]
    rows = []
    sigs = []
    for d in cl.deployments:
        rows.append(
            [d["ns"], d["name"], f"{d['ready']}/{d['replicas']}", str(d["replicas"]), str(d["ready"]), d["age"]]
        )
        if d["ready"] != d["replicas"]:
            sigs.append(sig("deployment", d["name"]))
    return synthesized(
        "kubectl-get-deployments-all",
        "devops/kubectl-get",
        family=FAMILY_K,
        command="kubectl get deployments -A",
        exit_code=0,
        stdout=_table(header, rows),
        signals=sigs,
        format_source="https://kubernetes.io/docs/concepts/workloads/controllers/deployment/ "
        "(kubectl get deployments columns NAME READY UP-TO-DATE AVAILABLE AGE)",
        tool_version=KUBECTL_VERSION,
    )


def _get_events(cl: Cluster) -> dict[str, Any]:
    rng = random.Random(3)
    header = ["NAMESPACE", "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
    rows = []
    warnings = []
    for p in cl.pods:
        if p["status"] == "Completed" or rng.random() < 0.55:
            continue
        obj = f"pod/{p['name']}"
        img = f"registry.example.com/{p['ns']}/{p['deploy'] or 'job'}:2.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
        for reason, msg in (
            ("Scheduled", f"Successfully assigned {p['ns']}/{p['name']} to {p['node']}"),
            ("Pulled", f'Container image "{img}" already present on machine'),
            ("Created", "Created container app"),
            ("Started", "Started container app"),
        ):
            rows.append([p["ns"], f"{rng.randint(2, 59)}m", "Normal", reason, obj, msg])
    for p in cl.bad_pods():
        obj = f"pod/{p['name']}"
        st = p["status"]
        if st == "CrashLoopBackOff":
            msg = f"Back-off restarting failed container app in pod {p['name']}_{p['ns']}"
            row = [p["ns"], "2m1s", "Warning", "BackOff", obj, msg]
        elif st == "Pending":
            msg = "0/14 nodes are available: 14 Insufficient memory. preemption: 0/14 nodes are available: 14 No preemption victims found for incoming pod."
            row = [p["ns"], "47s", "Warning", "FailedScheduling", obj, msg]
        elif st == "ImagePullBackOff":
            msg = f'Failed to pull image "registry.example.com/{p["ns"]}/{p["deploy"]}:2.99.0": not found'
            row = [p["ns"], "3m", "Warning", "Failed", obj, msg]
        elif st == "Running":
            msg = 'Readiness probe failed: Get "http://10.42.3.17:8080/ready": context deadline exceeded'
            row = [p["ns"], "15s", "Warning", "Unhealthy", obj, msg]
        elif st == "Terminating":
            rows.append([p["ns"], "6m", "Normal", "Killing", obj, "Stopping container app"])
            continue
        elif st == "ContainerCreating":
            msg = f'MountVolume.SetUp failed for volume "config" : configmap "{p["deploy"]}-config" not found'
            row = [p["ns"], "4m", "Warning", "FailedMount", obj, msg]
        elif st.startswith("Init:"):
            msg = f"Back-off restarting failed container migrate in pod {p['name']}_{p['ns']}"
            row = [p["ns"], "5m", "Warning", "BackOff", obj, msg]
        else:
            msg = f"Back-off restarting failed container app in pod {p['name']}_{p['ns']}"
            row = [p["ns"], "5m", "Warning", "BackOff", obj, msg]
        rows.append(row)
        warnings.append(msg)
    rng.shuffle(rows)
    rows.sort(key=lambda r: r[0])
    return synthesized(
        "kubectl-get-events-all",
        "devops/kubectl-get",
        family=FAMILY_K,
        command="kubectl get events -A",
        exit_code=0,
        stdout=_table(header, rows),
        signals=[sig("warning", w) for w in dict.fromkeys(warnings)],
        format_source="https://kubernetes.io/docs/reference/kubectl/generated/kubectl_events/ "
        "(LAST SEEN TYPE REASON OBJECT MESSAGE)",
        tool_version=KUBECTL_VERSION,
    )


def _describe_text(name: str, ns: str, crash: bool, rng: random.Random) -> str:
    node = rng.choice(_nodes(14))
    ip = f"10.42.{rng.randint(0, 13)}.{rng.randint(2, 250)}"
    image = "registry.example.com/payments/api:2.14.0"
    lines = [
        f"Name:             {name}",
        f"Namespace:        {ns}",
        "Priority:         0",
        "Service Account:  payments-api",
        f"Node:             {node}/10.0.{rng.randint(0, 3)}.{rng.randint(10, 200)}",
        "Start Time:       Sat, 14 Mar 2026 08:02:11 +0000",
        "Labels:           app.kubernetes.io/name=payments-api",
        "                  app.kubernetes.io/part-of=payments",
        "                  app.kubernetes.io/version=2.14.0",
        f"                  pod-template-hash={name.split('-')[-2]}",
        "Annotations:      kubectl.kubernetes.io/restartedAt: 2026-03-14T08:00:00Z",
        "                  prometheus.io/port: 9102",
        "                  prometheus.io/scrape: true",
        "Status:           Running",
        f"IP:               {ip}",
        "IPs:",
        f"  IP:           {ip}",
        f"Controlled By:  ReplicaSet/{name.rsplit('-', 1)[0]}",
        "Containers:",
        "  api:",
        f"    Container ID:   containerd://{rng.getrandbits(256):064x}",
        f"    Image:          {image}",
        f"    Image ID:       {image.split(':', maxsplit=1)[0]}@sha256:{rng.getrandbits(256):064x}",
        "    Ports:          8080/TCP, 9102/TCP",
        "    Host Ports:     0/TCP, 0/TCP",
    ]
    if crash:
        lines += [
            "    State:          Waiting",
            "      Reason:       CrashLoopBackOff",
            "    Last State:     Terminated",
            "      Reason:       Error",
            "      Exit Code:    1",
            "      Started:      Sat, 14 Mar 2026 08:44:52 +0000",
            "      Finished:     Sat, 14 Mar 2026 08:44:58 +0000",
            "    Ready:          False",
            "    Restart Count:  12",
        ]
    else:
        lines += [
            "    State:          Running",
            "      Started:      Sat, 14 Mar 2026 08:02:19 +0000",
            "    Ready:          True",
            "    Restart Count:  0",
        ]
    lines += [
        "    Limits:",
        "      cpu:     500m",
        "      memory:  512Mi",
        "    Requests:",
        "      cpu:      250m",
        "      memory:   256Mi",
        "    Liveness:   http-get http://:8080/healthz delay=10s timeout=1s period=10s #success=1 #failure=3",
        "    Readiness:  http-get http://:8080/ready delay=5s timeout=1s period=5s #success=1 #failure=3",
        "    Environment:",
        "      APP_ENV:              production",
        "      LOG_LEVEL:            info",
        "      DATABASE_URL:         <set to the key 'url' in secret 'payments-db'>  Optional: false",
        "      REDIS_URL:            redis://payments-cache:6379/0",
        "      STRIPE_API_KEY:       <set to the key 'stripe' in secret 'payments-keys'>  Optional: false",
        "      OTEL_EXPORTER_OTLP_ENDPOINT:  http://otel-collector.monitoring:4317",
        "    Mounts:",
        "      /etc/payments from config (ro)",
        "      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-8x2lq (ro)",
        "Conditions:",
        "  Type                        Status",
        "  PodReadyToStartContainers   True",
        "  Initialized                 True",
        f"  Ready                       {'False' if crash else 'True'}",
        f"  ContainersReady             {'False' if crash else 'True'}",
        "  PodScheduled                True",
        "Volumes:",
        "  config:",
        "    Type:      ConfigMap (a volume populated by a ConfigMap)",
        "    Name:      payments-api-config",
        "    Optional:  false",
        "  kube-api-access-8x2lq:",
        "    Type:                    Projected (a volume that contains injected data from multiple sources)",
        "    TokenExpirationSeconds:  3607",
        "    ConfigMapName:           kube-root-ca.crt",
        "    ConfigMapOptional:       <nil>",
        "    DownwardAPI:             true",
        "QoS Class:                   Burstable",
        "Node-Selectors:              kubernetes.io/os=linux",
        "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
        "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s",
        "Events:",
    ]
    ev_header = ["Type", "Reason", "Age", "From", "Message"]
    ev = [["----", "------", "----", "----", "-------"]]
    ev.append(["Normal", "Scheduled", "45m", "default-scheduler", f"Successfully assigned {ns}/{name} to {node}"])
    if crash:
        ev += [
            [
                "Normal",
                "Pulled",
                "43m (x5 over 45m)",
                "kubelet",
                f'Container image "{image}" already present on machine',
            ],
            ["Normal", "Created", "43m (x5 over 45m)", "kubelet", "Created container api"],
            ["Normal", "Started", "43m (x5 over 45m)", "kubelet", "Started container api"],
            [
                "Warning",
                "Unhealthy",
                "44m (x9 over 45m)",
                "kubelet",
                f'Readiness probe failed: Get "http://{ip}:8080/ready": dial tcp {ip}:8080: connect: connection refused',
            ],
            [
                "Warning",
                "BackOff",
                "2m (x187 over 44m)",
                "kubelet",
                f"Back-off restarting failed container api in pod {name}_{ns}({rng.getrandbits(128):032x})",
            ],
        ]
    else:
        ev += [
            ["Normal", "Pulled", "45m", "kubelet", f'Container image "{image}" already present on machine'],
            ["Normal", "Created", "45m", "kubelet", "Created container api"],
            ["Normal", "Started", "45m", "kubelet", "Started container api"],
        ]
    widths = [max(len(ev_header[k]), *(len(r[k]) for r in ev)) for k in range(5)]
    for row in [ev_header, *ev]:
        lines.append("  " + ("".join(row[k].ljust(widths[k] + 2) for k in range(4)) + row[4]).rstrip())
    return "\n".join(lines) + "\n"


def _describe_pod() -> dict[str, Any]:
    rng = random.Random(2)
    name = "payments-api-7d9f8b6c5d-x2kqp"
    text = _describe_text(name, "payments", True, rng)
    return synthesized(
        "kubectl-describe-pod-crashloop",
        "devops/kubectl-describe",
        family=FAMILY_K,
        command=f"kubectl describe pod {name} -n payments",
        exit_code=0,
        stdout=text,
        signals=[
            sig("state", "CrashLoopBackOff"),
            sig("exit", "Exit Code: 1"),
            sig("restarts", "Restart Count: 12"),
            sig("event", "Back-off restarting failed container api"),
            sig("event", "Readiness probe failed"),
            sig("image", "registry.example.com/payments/api:2.14.0"),
        ],
        format_source="https://kubernetes.io/docs/tasks/debug/debug-application/debug-pods/ "
        "(example kubectl describe pod output with Containers, Conditions and Events)",
        tool_version=KUBECTL_VERSION,
    )


def _describe_pods_many() -> dict[str, Any]:
    rng = random.Random(9)
    parts = []
    crashed = []
    for k in range(14):
        name = f"payments-api-7d9f8b6c5d-{_suffix(rng, 5)}"
        crash = k in (3, 10)
        if crash:
            crashed.append(name)
        parts.append(_describe_text(name, "payments", crash, rng))
    text = "\n\n".join(p.rstrip("\n") for p in parts) + "\n"
    return synthesized(
        "kubectl-describe-pods-many",
        "devops/kubectl-describe",
        family=FAMILY_K,
        command="kubectl describe pods -n payments -l app.kubernetes.io/name=payments-api",
        exit_code=0,
        stdout=text,
        signals=[sig("pod", n) for n in crashed] + [sig("state", "CrashLoopBackOff"), sig("exit", "Exit Code: 1")],
        format_source="https://kubernetes.io/docs/tasks/debug/debug-application/debug-pods/ (describe output, "
        "one block per pod)",
        tool_version=KUBECTL_VERSION,
    )


def _logs() -> dict[str, Any]:
    """A JVM service log with one stack trace, as `kubectl logs` prints the container's stdout."""
    rng = random.Random(6)
    out = []
    errors = []
    for i in range(2600):
        ts = f"2026-03-14T08:{(i // 60) % 60:02d}:{i % 60:02d}.{i * 13 % 1000:03d}Z"
        if i == 1900:
            e = f"{ts} ERROR 1 --- [nio-8080-exec-7] c.e.orders.api.OrderController      : Request failed for order 4471902"
            out.append(e)
            errors.append(e)
            out += [
                "org.springframework.dao.DataIntegrityViolationException: could not execute statement; SQL [n/a]; constraint [orders_customer_id_fkey]",
                "\tat org.springframework.orm.jpa.vendor.HibernateJpaDialect.convertHibernateAccessException(HibernateJpaDialect.java:290)",
                "\tat org.springframework.orm.jpa.JpaTransactionManager.doCommit(JpaTransactionManager.java:566)",
                "\tat com.example.orders.service.OrderService.place(OrderService.java:118)",
                "\tat com.example.orders.api.OrderController.create(OrderController.java:64)",
                'Caused by: org.postgresql.util.PSQLException: ERROR: insert or update on table "orders" violates foreign key constraint "orders_customer_id_fkey"',
                "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2725)",
                "\t... 87 common frames omitted",
            ]
            continue
        if i in (700, 2300):
            w = f"{ts}  WARN 1 --- [   scheduling-1] c.e.orders.sync.StockSync             : Stock sync lagging by {rng.randint(30, 90)}s"
            out.append(w)
            errors.append(w)
            continue
        r = rng.random()
        if r < 0.75:
            out.append(
                f"{ts}  INFO 1 --- [nio-8080-exec-{rng.randint(1, 10)}] c.e.orders.api.OrderController      : "
                f"GET /api/orders/{rng.randint(1000000, 9999999)} -> 200 in {rng.randint(3, 80)}ms"
            )
        else:
            out.append(
                f"{ts} DEBUG 1 --- [   scheduling-1] c.e.orders.sync.StockSync             : synced {rng.randint(10, 500)} sku rows"
            )
    return synthesized(
        "kubectl-logs-java-stacktrace",
        "devops/kubectl-logs",
        family=FAMILY_K,
        command="kubectl logs -n orders deploy/orders-api --since=1h",
        exit_code=0,
        stdout="\n".join(out) + "\n",
        signals=[sig("log", e) for e in errors]
        + [
            sig("exception", "org.springframework.dao.DataIntegrityViolationException"),
            sig("cause", "Caused by: org.postgresql.util.PSQLException"),
            sig("location", "OrderService.java:118"),
        ],
        format_source="https://kubernetes.io/docs/reference/kubectl/generated/kubectl_logs/ (container stdout "
        "as written; Spring Boot default log layout)",
        tool_version=KUBECTL_VERSION,
    )


def _apply_dir() -> dict[str, Any]:
    rng = random.Random(4)
    lines = []
    changed = []
    kinds = [
        "deployment.apps",
        "service",
        "configmap",
        "serviceaccount",
        "horizontalpodautoscaler.autoscaling",
        "poddisruptionbudget.policy",
    ]
    for ns in NAMESPACES[:6]:
        for app in APPS[:6]:
            for kind in kinds:
                verb = "unchanged" if rng.random() < 0.85 else rng.choice(["configured", "created"])
                line = f"{kind}/{ns}-{app} {verb}"
                lines.append(line)
                if verb != "unchanged":
                    changed.append(line)
    err1 = (
        'Error from server (Invalid): error when applying patch:\n{"spec":{"template":{"spec":{"containers":[{"name":"app",'
        '"resources":{"limits":{"memory":"512"}}}]}}}}\nto:\nResource: "apps/v1, Resource=deployments", GroupVersionKind: '
        '"apps/v1, Kind=Deployment"\nName: "search-indexer", Namespace: "search"\nfor: "k8s/search/indexer.yaml": error when '
        'patching "k8s/search/indexer.yaml": Deployment.apps "search-indexer" is invalid: spec.template.spec.containers[0].'
        'resources.requests: Invalid value: "1Gi": must be less than or equal to memory limit of 512'
    )
    err2 = 'Error from server (NotFound): error when creating "k8s/platform/ingress.yaml": namespaces "edge" not found'
    return synthesized(
        "kubectl-apply-recursive",
        "devops/kubectl-apply",
        family=FAMILY_K,
        command="kubectl apply -R -f k8s/",
        exit_code=1,
        stdout="\n".join(lines) + "\n",
        stderr=err1 + "\n" + err2 + "\n",
        signals=[sig("changed", c) for c in changed]
        + [
            sig("error", 'Deployment.apps "search-indexer" is invalid'),
            sig("error", 'namespaces "edge" not found'),
        ],
        format_source="https://kubernetes.io/docs/reference/kubectl/generated/kubectl_apply/ "
        "(`<kind>/<name> created|configured|unchanged` lines; `Error from server (…)` on stderr)",
        tool_version=KUBECTL_VERSION,
    )


# ----------------------------------------------------------------- helm

HELM_DOC = "https://helm.sh/docs/helm/helm_list/, helm_install/, helm_upgrade/, helm_template/"


def _helm_list() -> dict[str, Any]:
    rng = random.Random(12)
    header = ["NAME", "NAMESPACE", "REVISION", "UPDATED", "STATUS", "CHART", "APP VERSION"]
    rows = []
    bad = []
    charts = [
        "payments-api",
        "orders-api",
        "catalog",
        "search",
        "identity",
        "redis",
        "postgresql",
        "ingress-nginx",
        "kube-prometheus-stack",
        "cert-manager",
        "external-dns",
        "loki",
        "tempo",
        "grafana",
    ]
    for k in range(44):
        ns = NAMESPACES[k % len(NAMESPACES)]
        chart = charts[k % len(charts)]
        name = f"{chart}" if k < len(charts) else f"{chart}-{ns}"
        status = "deployed"
        if k in (7, 23):
            status = "failed"
        elif k == 31:
            status = "pending-upgrade"
        rev = str(rng.randint(1, 60))
        upd = f"2026-03-{rng.randint(1, 14):02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(10**8, 10**9 - 1)} +0000 UTC"
        ver = f"{rng.randint(0, 5)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}"
        rows.append([name, ns, rev, upd, status, f"{chart}-{ver}", ver])
        if status != "deployed":
            bad.append(name)
    return synthesized(
        "helm-list-all",
        "devops/helm",
        family=FAMILY_H,
        command="helm list -A",
        exit_code=0,
        stdout=_uitable(header, rows),
        signals=[sig("release", n) for n in bad] + [sig("status", "failed"), sig("status", "pending-upgrade")],
        format_source=HELM_DOC,
        tool_version=HELM_VERSION,
    )


def _helm_install() -> dict[str, Any]:
    text = """NAME: payments-api
LAST DEPLOYED: Sat Mar 14 09:12:44 2026
NAMESPACE: payments
STATUS: deployed
REVISION: 1
TEST SUITE: None
NOTES:
1. Get the application URL by running these commands:
  export POD_NAME=$(kubectl get pods --namespace payments -l "app.kubernetes.io/name=payments-api,app.kubernetes.io/instance=payments-api" -o jsonpath="{.items[0].metadata.name}")
  export CONTAINER_PORT=$(kubectl get pod --namespace payments $POD_NAME -o jsonpath="{.spec.containers[0].ports[0].containerPort}")
  echo "Visit http://127.0.0.1:8080 to use your application"
  kubectl --namespace payments port-forward $POD_NAME 8080:$CONTAINER_PORT
"""
    return synthesized(
        "helm-install-ok",
        "devops/helm",
        family=FAMILY_H,
        command="helm install payments-api ./charts/payments-api -n payments",
        exit_code=0,
        stdout=text,
        signals=[
            sig("status", "STATUS: deployed"),
            sig("release", "NAME: payments-api"),
            sig("revision", "REVISION: 1"),
        ],
        format_source="https://helm.sh/docs/intro/using_helm/ (helm install output: NAME, LAST DEPLOYED, NAMESPACE, STATUS, REVISION, NOTES)",
        tool_version=HELM_VERSION,
    )


def _helm_upgrade_fail() -> dict[str, Any]:
    lines = [
        'level=WARN msg="upgrade failed" name=orders-api error="context deadline exceeded"',
    ]
    lines += [
        "client.go:486: [debug] Looking for resources to update",
        'client.go:703: [debug] Patch Deployment "orders-api" in namespace orders',
        'client.go:703: [debug] Patch ConfigMap "orders-api" in namespace orders',
        "wait.go:48: [debug] beginning wait for 3 resources with timeout of 5m0s",
    ]
    # ready.go repeats the same line every poll until the timeout.
    lines += [
        "ready.go:303: [debug] Deployment is not ready: orders/orders-api. 2 out of 3 expected pods are ready"
    ] * 148
    lines.append("Error: UPGRADE FAILED: context deadline exceeded")
    return synthesized(
        "helm-upgrade-timeout",
        "devops/helm",
        family=FAMILY_H,
        command="helm upgrade --install orders-api ./charts/orders-api -n orders --wait --timeout 5m --debug",
        exit_code=1,
        stdout="",
        stderr="\n".join(lines) + "\n",
        signals=[
            sig("error", "Error: UPGRADE FAILED: context deadline exceeded"),
            sig("reason", "Deployment is not ready: orders/orders-api. 2 out of 3 expected pods are ready"),
        ],
        format_source="https://helm.sh/docs/helm/helm_upgrade/ (--wait/--timeout; --debug client log lines)",
        tool_version=HELM_VERSION,
    )


def _helm_template() -> dict[str, Any]:
    docs = []
    objects = []
    for app in APPS:
        base = f"shop-{app}"
        for kind, tmpl in (
            ("ServiceAccount", "serviceaccount.yaml"),
            ("ConfigMap", "configmap.yaml"),
            ("Service", "service.yaml"),
            ("Deployment", "deployment.yaml"),
            ("HorizontalPodAutoscaler", "hpa.yaml"),
        ):
            objects.append((kind, base))
            body = [
                "---",
                f"# Source: shop/charts/{app}/templates/{tmpl}",
                f"apiVersion: {'apps/v1' if kind == 'Deployment' else 'autoscaling/v2' if kind == 'HorizontalPodAutoscaler' else 'v1'}",
                f"kind: {kind}",
                "metadata:",
                f"  name: {base}",
                "  labels:",
                f"    helm.sh/chart: {app}-1.4.0",
                f"    app.kubernetes.io/name: {app}",
                "    app.kubernetes.io/instance: shop",
                '    app.kubernetes.io/version: "1.4.0"',
                "    app.kubernetes.io/managed-by: Helm",
            ]
            if kind == "Deployment":
                body += [
                    "spec:",
                    "  replicas: 2",
                    "  selector:",
                    "    matchLabels:",
                    f"      app.kubernetes.io/name: {app}",
                    "      app.kubernetes.io/instance: shop",
                    "  template:",
                    "    metadata:",
                    "      labels:",
                    f"        app.kubernetes.io/name: {app}",
                    "        app.kubernetes.io/instance: shop",
                    "    spec:",
                    f"      serviceAccountName: {base}",
                    "      securityContext:",
                    "        runAsNonRoot: true",
                    "        fsGroup: 2000",
                    "      containers:",
                    f"        - name: {app}",
                    "          securityContext:",
                    "            readOnlyRootFilesystem: true",
                    "            allowPrivilegeEscalation: false",
                    f'          image: "registry.example.com/shop/{app}:1.4.0"',
                    "          imagePullPolicy: IfNotPresent",
                    "          ports:",
                    "            - name: http",
                    "              containerPort: 8080",
                    "              protocol: TCP",
                    "          livenessProbe:",
                    "            httpGet:",
                    "              path: /healthz",
                    "              port: http",
                    "          readinessProbe:",
                    "            httpGet:",
                    "              path: /ready",
                    "              port: http",
                    "          resources:",
                    "            limits:",
                    "              cpu: 500m",
                    "              memory: 512Mi",
                    "            requests:",
                    "              cpu: 100m",
                    "              memory: 128Mi",
                    "          envFrom:",
                    "            - configMapRef:",
                    f"                name: {base}",
                ]
            elif kind == "Service":
                body += [
                    "spec:",
                    "  type: ClusterIP",
                    "  ports:",
                    "    - port: 80",
                    "      targetPort: http",
                    "      protocol: TCP",
                    "      name: http",
                    "  selector:",
                    f"    app.kubernetes.io/name: {app}",
                    "    app.kubernetes.io/instance: shop",
                ]
            elif kind == "ConfigMap":
                body += [
                    "data:",
                    '  LOG_LEVEL: "info"',
                    f'  SERVICE_NAME: "{app}"',
                    '  OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-collector.monitoring:4317"',
                ]
            elif kind == "HorizontalPodAutoscaler":
                body += [
                    "spec:",
                    "  scaleTargetRef:",
                    "    apiVersion: apps/v1",
                    "    kind: Deployment",
                    f"    name: {base}",
                    "  minReplicas: 2",
                    "  maxReplicas: 10",
                    "  metrics:",
                    "    - type: Resource",
                    "      resource:",
                    "        name: cpu",
                    "        target:",
                    "          type: Utilization",
                    "          averageUtilization: 70",
                ]
            docs.append("\n".join(body))
    return synthesized(
        "helm-template-large",
        "devops/helm-template",
        family=FAMILY_H,
        command="helm template shop ./charts/shop",
        exit_code=0,
        stdout="\n".join(docs) + "\n",
        signals=[sig("object", f"{k} {n}", f"{k}/{n}") for k, n in objects if k in ("Deployment", "Service")],
        format_source="https://helm.sh/docs/helm/helm_template/ (rendered manifests, `---` and `# Source:` per document)",
        tool_version=HELM_VERSION,
    )
