# A seed with one healthy shoot on a local etcd + kube-apiserver (the binaries of scripts/control-plane),
# for the image's training run and start-up benchmark (sourced by scripts/image, not run directly).
#
#   seed_start DIR   starts etcd and kube-apiserver with their files in DIR and adds the shoot $seed_namespace
#                    (seed_add_shoots). Sets seed_dir and seed_server, writes DIR/seed.kubeconfig and
#                    DIR/prober-config.yaml (Gardener's config, probing every 2 s from the start).
#   seed_add_shoots NAMESPACE...  adds healthy shoots
#   seed_stop        stops both servers and removes DIR
#   seed_free_port   prints a TCP port nothing listens on (below the ephemeral range)

seed_pids=()
seed_namespace=shoot--dwd--image

seed_free_port() {
  local port
  while :; do
    # Below the kernel's ephemeral range (32768 and up by default), where client connections take ports.
    port=$((20000 + RANDOM % 12000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
}

seed_start() {
  seed_dir=$1
  local binaries token etcd_port peer_port api_port kubectl deadline node i now
  binaries=$(ls -d "$("$app_root/scripts/control-plane" --path)"/k8s/*/ 2>/dev/null | head -1)
  [[ -x $binaries/kube-apiserver && -x $binaries/etcd && -x $binaries/kubectl ]] \
    || { echo "image: no local control plane; run 'make control-plane' first" >&2; return 1; }
  command -v openssl >/dev/null || { echo "image: openssl not found (apt-get install -y openssl)" >&2; return 1; }
  rm -rf "$seed_dir" && mkdir -p "$seed_dir/certs"
  etcd_port=$(seed_free_port); peer_port=$(seed_free_port); api_port=$(seed_free_port)
  "$binaries/etcd" --data-dir "$seed_dir/etcd" --log-level warn \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "default=http://127.0.0.1:$peer_port" >"$seed_dir/etcd.log" 2>&1 &
  seed_pids+=($!)
  openssl genrsa -out "$seed_dir/service-account.key" 2048 2>/dev/null
  token=$(openssl rand -hex 16)
  echo "$token,admin,admin,\"system:masters\"" > "$seed_dir/tokens.csv"
  "$binaries/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" --bind-address 127.0.0.1 \
    --advertise-address 127.0.0.1 --secure-port "$api_port" --cert-dir "$seed_dir/certs" \
    --token-auth-file "$seed_dir/tokens.csv" --authorization-mode RBAC --service-account-issuer https://localhost \
    --service-account-key-file "$seed_dir/service-account.key" \
    --service-account-signing-key-file "$seed_dir/service-account.key" \
    --service-cluster-ip-range 10.0.0.0/24 --disable-admission-plugins ServiceAccount >"$seed_dir/kube-apiserver.log" 2>&1 &
  seed_pids+=($!)
  seed_server=https://127.0.0.1:$api_port
  deadline=$((SECONDS + 120))
  until [[ -s $seed_dir/certs/apiserver.crt ]] && seed_write_kubeconfig "$token" \
      && "$binaries/kubectl" --kubeconfig "$seed_dir/seed.kubeconfig" get --raw /readyz >/dev/null 2>&1; do
    if (( SECONDS > deadline )); then
      tail -5 "$seed_dir/etcd.log" "$seed_dir/kube-apiserver.log" >&2
      echo "image: the local kube-apiserver did not get ready within 120 s" >&2; return 1
    fi
    sleep 1
  done
  seed_kubectl=$binaries/kubectl
  kubectl=("$seed_kubectl" --kubeconfig "$seed_dir/seed.kubeconfig")
  "${kubectl[@]}" apply -f "$app_root/deploy/crds" >/dev/null
  "${kubectl[@]}" wait --for condition=established --timeout=60s crd --all >/dev/null
  seed_add_shoots "$seed_namespace"
  sed -e 's/^probeInterval: 30s/probeInterval: 2s\ninitialDelay: 0s/' "$app_root/deploy/examples/prober-config.yaml" \
    > "$seed_dir/prober-config.yaml"
  chmod 0644 "$seed_dir/seed.kubeconfig" "$seed_dir/prober-config.yaml"
}

# Creates a healthy shoot per namespace name given: its namespace, Cluster (node-monitor grace period 1h: its
# leases never expire here), kubeconfig secret, Gardener's three dependents, and 3 nodes with Running Machines
# and fresh leases.
seed_add_shoots() {
  local kubectl=("$seed_kubectl" --kubeconfig "$seed_dir/seed.kubeconfig") now namespace deployment node i
  now=$(date -u +%Y-%m-%dT%H:%M:%S.%6NZ)
  for namespace in "$@"; do
    cat <<YAML
---
apiVersion: v1
kind: Namespace
metadata: {name: $namespace}
---
apiVersion: extensions.gardener.cloud/v1alpha1
kind: Cluster
metadata: {name: $namespace}
spec:
  cloudProfile: {}
  seed: {}
  shoot:
    apiVersion: core.gardener.cloud/v1beta1
    kind: Shoot
    metadata: {name: $namespace, namespace: garden-dwd}
    spec:
      hibernation: {enabled: false}
      provider: {workers: [{name: pool-a, machineControllerManager: {}}]}
      kubernetes: {kubeControllerManager: {nodeMonitorGracePeriod: 1h}}
    status:
      hibernated: false
      lastOperation: {type: Reconcile, state: Succeeded}
---
apiVersion: v1
kind: Secret
metadata: {name: shoot-access-dependency-watchdog-probe, namespace: $namespace}
stringData:
  kubeconfig: |
$(sed 's/^/    /' "$seed_dir/seed.kubeconfig")
YAML
    for deployment in kube-controller-manager machine-controller-manager cluster-autoscaler; do
      cat <<YAML
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: $deployment, namespace: $namespace}
spec:
  replicas: 1
  selector: {matchLabels: {app: $deployment}}
  template:
    metadata: {labels: {app: $deployment}}
    spec: {containers: [{name: $deployment, image: registry.invalid/$deployment}]}
YAML
    done
    for i in 0 1 2; do
      node=$namespace-node-$i
      cat <<YAML
---
apiVersion: v1
kind: Node
metadata: {name: $node, labels: {worker.gardener.cloud/pool: pool-a}}
---
apiVersion: machine.sapcloud.io/v1alpha1
kind: Machine
metadata: {name: machine-$i, namespace: $namespace, labels: {node: $node}}
spec: {}
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: $node, namespace: kube-node-lease}
spec: {holderIdentity: $node, leaseDurationSeconds: 40, renewTime: "$now"}
YAML
    done
  done | "${kubectl[@]}" apply -f - >/dev/null
  for namespace in "$@"; do
    for i in 0 1 2; do
      "${kubectl[@]}" -n "$namespace" patch machine "machine-$i" --subresource=status --type=merge \
        -p '{"status":{"currentStatus":{"phase":"Running"}}}' >/dev/null
    done
  done
}

seed_write_kubeconfig() {
  cat > "$seed_dir/seed.kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: seed
  cluster: {server: "$seed_server", certificate-authority-data: $(base64 -w0 "$seed_dir/certs/apiserver.crt")}
users:
- name: admin
  user: {token: $1}
contexts:
- name: seed
  context: {cluster: seed, user: admin}
current-context: seed
YAML
}

seed_stop() {
  local pid i index
  # kube-apiserver first (it needs etcd to shut down cleanly); SIGKILL whatever is still up after 20 s.
  for ((index = ${#seed_pids[@]} - 1; index >= 0; index--)); do
    pid=${seed_pids[index]}
    kill "$pid" 2>/dev/null || continue
    for ((i = 0; i < 200; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  seed_pids=()
  [[ -n ${seed_dir:-} ]] && rm -rf "$seed_dir"
  seed_server=
}
