# Start-up of the image with and without its AOT cache (sourced by scripts/image --bench, after seed_start).
# Figures and method: docs/benchmarks.md. Runs under the shared heavy lock when figures are to be written down.
#
#   image_bench IMAGE   1. hyperfine: `dwd version` through podman run, with and without the cache, and
#                          podman run of a process that does nothing (what podman itself costs)
#                       2. dwd prober against the seed, DWD_BENCH_RUNS times each way (default 5): from
#                          `podman run` to the first probe run's log line, and from the container's start
#                          (podman's State.StartedAt) to that line

image_bench() {
  local image=$1 runs=${DWD_BENCH_RUNS:-5} run mode i name t0 line t1 started no_aot
  command -v hyperfine >/dev/null || fail "hyperfine not found (apt-get install -y hyperfine)"
  run="${podman[*]} run --rm --read-only --tmpfs /tmp --user 65532 --cap-drop=ALL ${limits[*]}"
  no_aot="-e JDK_JAVA_OPTIONS=-XX:AOTMode=off"
  say "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  hyperfine --warmup 2 --runs 15 --style basic --export-markdown "$out/bench-version.md" \
    -n "podman run of ld.so --version (no JVM)" "$run --entrypoint /lib64/ld-linux-x86-64.so.2 $image --version" \
    -n "dwd version, AOT cache" "$run $image version" \
    -n "dwd version, no AOT cache" "$run $no_aot $image version" >&2
  for mode in aot no-aot; do
    for i in $(seq "$runs"); do
      name=dwd-bench-$$-$mode-$i
      t0=$(date +%s.%N)
      "${podman[@]}" run -d --name "$name" --network=host --read-only --tmpfs /tmp --user 65532 --cap-drop=ALL \
        "${limits[@]}" $([[ $mode == no-aot ]] && echo "$no_aot") \
        -v "$seed_dir/prober-config.yaml:/etc/dwd/config.yaml:ro" -v "$seed_dir/seed.kubeconfig:/etc/dwd/kubeconfig:ro" \
        "$image" prober --config-file /etc/dwd/config.yaml --kubeconfig /etc/dwd/kubeconfig \
        --metrics-bind-addr="127.0.0.1:$(seed_free_port)" --health-bind-addr="127.0.0.1:$(seed_free_port)" >/dev/null
      line=
      until [[ -n $line ]]; do
        line=$(podman logs "$name" 2>&1 | grep -m1 "$seed_namespace: lease probe" || true)
        if [[ -z $line && $(podman inspect --format '{{.State.Running}}' "$name") != true ]]; then
          podman logs "$name" 2>&1 | tail -5 >&2; podman rm -f "$name" >/dev/null; fail "bench: the prober exited"
        fi
        [[ -n $line ]] || sleep 0.1
      done
      t1=$(date -d "$(sed -E 's/.*"time":"([^"]+)".*/\1/' <<<"$line")" +%s.%N)
      started=$(podman inspect --format '{{.State.StartedAt}}' "$name" | sed -E 's/ [A-Z]+$//')
      started=$(date -d "$started" +%s.%N)
      podman stop --time 30 "$name" >/dev/null; podman rm -f "$name" >/dev/null
      awk -v m="$mode" -v a="$t0" -v s="$started" -v b="$t1" \
        'BEGIN { printf "bench: prober %-6s podman run -> first probe %.2f s, container start -> first probe %.2f s\n", m, b - a, b - s }' >&2
    done
  done
  say "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# image_resources IMAGE: memory (RSS of the JVM, the container's cgroup usage) and CPU of dwd in the image,
# for the manifests' requests: an idle prober (one shoot, probed every 2 s), a prober on a typical seed
# (DWD_BENCH_SHOOTS shoots, default 200, Gardener's config: every 30 s) and a weeder on that seed (Gardener's
# config; no endpoint changes: idle). Each runs 60 s to settle, then is sampled every 10 s for 120 s.
# DWD_BENCH_JAVA_OPTIONS goes to the roles' JVMs (e.g. -Xmx256m).
image_resources() {
  local image=$1 shoots=${DWD_BENCH_SHOOTS:-200} i namespaces=()
  cp "$root/deploy/examples/prober-config.yaml" "$seed_dir/prober-typical.yaml"
  cp "$root/deploy/examples/weeder-config.yaml" "$seed_dir/weeder.yaml"
  chmod 0644 "$seed_dir"/*.yaml
  resources_of "$image" "prober, 1 shoot every 2 s" prober "$seed_dir/prober-config.yaml"
  for ((i = 1; i <= shoots; i++)); do namespaces+=("shoot--bench--s$i"); done
  say "resources: adding $shoots shoots to the seed ..."
  seed_add_shoots "${namespaces[@]}"
  resources_of "$image" "prober, $((shoots + 1)) shoots every 30 s" prober "$seed_dir/prober-typical.yaml"
  resources_of "$image" "weeder, $((shoots + 1)) shoot namespaces, idle" weeder "$seed_dir/weeder.yaml"
}

resources_of() {
  local image=$1 what=$2 role=$3 config=$4 name pid ticks0 ticks1 rss max_rss=0 cgroup sample metrics heap
  name=dwd-resources-$$-$role
  metrics=$(seed_free_port)
  "${podman[@]}" run -d --name "$name" --network=host --read-only --tmpfs /tmp --user 65532 --cap-drop=ALL \
    "${limits[@]}" ${DWD_BENCH_JAVA_OPTIONS:+-e "JDK_JAVA_OPTIONS=$DWD_BENCH_JAVA_OPTIONS"} -v "$config:/etc/dwd/config.yaml:ro" -v "$seed_dir/seed.kubeconfig:/etc/dwd/kubeconfig:ro" \
    "$image" "$role" --config-file /etc/dwd/config.yaml --kubeconfig /etc/dwd/kubeconfig \
    --metrics-bind-addr="127.0.0.1:$metrics" --health-bind-addr="127.0.0.1:$(seed_free_port)" >/dev/null
  pid=$(podman inspect --format '{{.State.Pid}}' "$name")
  sleep 60
  ticks0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  for sample in $(seq 12); do
    sleep 10
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
    cgroup=$(podman stats --no-stream --format '{{.MemUsage}}' "$name" | awk '{print $1}')
    (( rss > max_rss )) && max_rss=$rss
  done
  ticks1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  heap=$(curl -s "http://127.0.0.1:$metrics/metrics" | awk '
    /^jvm_memory_used_bytes\{.*area="heap"/ { used += $NF }
    /^jvm_gc_live_data_size_bytes/ { live = $NF }
    /^jvm_gc_pause_seconds_sum/ { pause += $NF }
    END { printf "%.0f MiB, live after the last old-generation GC %.0f MiB, GC pauses %.1f s in all", used / 1048576, live / 1048576, pause }')
  podman stop --time 30 "$name" >/dev/null; podman rm -f "$name" >/dev/null
  awk -v w="$what" -v r="$max_rss" -v c="$cgroup" -v t=$((ticks1 - ticks0)) -v hz="$(getconf CLK_TCK)" \
    -v h="$heap" 'BEGIN { printf "resources: %-40s RSS max %.0f MiB (heap in use at the end %s), cgroup at the end %s, CPU %.0f millicores (120 s average)\n", w, r / 1024, h, c, t / hz / 120 * 1000 }' >&2
}
