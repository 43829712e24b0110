# The image of one architecture from its filled context (sourced by scripts/image, after its steps 1-3).
#
#   image_build ARCH DIR   podman build --platform linux/ARCH of deploy/image/Containerfile from DIR/context,
#                          the AOT cache's training run in that image (emulated when ARCH is not the host's),
#                          then deploy/image/Containerfile.aot with the cache and the labels; tags the image
#                          dwd:<version>-ARCH and sets image_ids[ARCH]. Reuses the tagged image when nothing
#                          that goes into it changed (its label dev.dwd.image.inputs). Writes the SBOM
#                          dwd-<version>-linux-ARCH.cdx.json beside it.

image_build() {
  local arch=$1 dir=$2 context=$2/context inputs tagged existing untrained image training started
  local platform=(--platform "linux/$arch")
  tagged=$name-$arch
  inputs=$( { echo "$arch $base_tar $(<"$dir/runtime.key") $revision $source_url $created_epoch $training_run"
              cat "$dir/runtime.env" "$root/deploy/image/Containerfile" "$root/deploy/image/Containerfile.aot" \
                "$root/scripts/image" "$root/scripts/image-build.sh" "$root/scripts/image-runtime.sh"
              find "$context/libs" -type f | sort | xargs cat
              cat "$context/dwd.jar" "$context/jvm.args" "$context/image.args" "$context/dependency-watchdog"; } \
            | sha256sum | cut -c1-16)
  existing=$(podman image inspect --format '{{index .Labels "dev.dwd.image.inputs"}}' "$tagged" 2>/dev/null || true)
  if [[ $existing == "$inputs" ]]; then
    say "up to date: $tagged (nothing that goes into it changed)"
  else
    local build_args=(--timestamp "$created_epoch" --pull=never --quiet "${platform[@]}")
    say "podman build linux/$arch (the image without its AOT cache) ..."
    untrained=$(podman build "${build_args[@]}" -f "$root/deploy/image/Containerfile" "$context")
    untrained=${untrained##*$'\n'}
    # What the runtime says of itself, for the labels and the SBOM.
    "${podman[@]}" run --rm "${platform[@]}" "${limits[@]}" --entrypoint /opt/java/bin/java "$untrained" \
      -XX:-UsePerfData -XshowSettings:properties -version >"$dir/java.properties" 2>&1 \
      || { cat "$dir/java.properties" >&2; fail "the $arch runtime does not start in its image"; }
    image_train "$arch" "$dir" "$untrained"
    say "podman build linux/$arch (with the AOT cache and the labels) ..."
    # shellcheck disable=SC1091
    source "$dir/runtime.env"
    image=$(podman build "${build_args[@]}" -f "$root/deploy/image/Containerfile.aot" \
      --build-arg APP_IMAGE="$untrained" --build-arg VERSION="$version" --build-arg REVISION="$revision" \
      --build-arg SOURCE="$source_url" --build-arg CREATED="$(date -u -d "@$created_epoch" +%Y-%m-%dT%H:%M:%SZ)" \
      --build-arg JAVA_DISTRIBUTION="$(arch_java_property "$dir/java.properties" java.vendor) $(arch_java_property "$dir/java.properties" java.vendor.version)" \
      --build-arg JAVA_VERSION="$(arch_java_property "$dir/java.properties" java.runtime.version)" \
      --build-arg JAVA_SOURCE="$JAVA_SOURCE" --build-arg JAVA_SOURCE_SHA256="$JAVA_SOURCE_SHA256" \
      --build-arg JAVA_SHA256="$JAVA_SHA256" --build-arg JAVA_LICENSE="$JAVA_LICENSE" \
      --build-arg INPUTS="$inputs" "$context")
    image=${image##*$'\n'}
    podman tag "$image" "$tagged"
  fi
  image_ids[$arch]=$(podman image inspect --format '{{.Id}}' "$tagged")
  [[ -f $dir/java.properties ]] || "${podman[@]}" run --rm "${platform[@]}" "${limits[@]}" --entrypoint /opt/java/bin/java \
    "$tagged" -XX:-UsePerfData -XshowSettings:properties -version >"$dir/java.properties" 2>&1
  arch_sbom "$arch" "$dir" "$out/dwd-$version-linux-$arch.cdx.json"
}

# The AOT cache's training run in the untrained image: the launcher's JVM flags (the same argfiles), writing
# the cache instead of reading it; under Gardener's memory limit, so that the JVM picks the collector and
# heap it will have in a seed. A foreign architecture's JVM runs under emulation: slower, the same cache.
image_train() {
  local arch=$1 dir=$2 untrained=$3 training started deadline
  rm -f "$dir/context/dwd.aot"
  mkdir -p "$dir/aot" && chmod 0777 "$dir/aot" && rm -f "$dir/aot/"*
  training=dwd-image-training-$arch-$$
  local train=("${podman[@]}" run --name "$training" --platform "linux/$arch" --read-only --tmpfs /tmp --user 65532
    --cap-drop=ALL "${limits[@]}" --memory=512m -v "$dir/aot:/aot" --entrypoint /opt/java/bin/java)
  # Two steps, each a JVM of its own (JEP 483): the run records what it loads and links, then a second JVM
  # writes the cache. -XX:AOTCacheOutput would do both in one run, but the second JVM would start beside the
  # first, and under emulation the two no longer fit in 512m.
  local aot_flags=(@/app/jvm.args @/app/image.args -XX:+UnlockDiagnosticVMOptions -XX:-AOTAdapterCaching
    -XX:AOTConfiguration=/aot/dwd.aotconf)
  local java_flags=("${aot_flags[@]}" -XX:AOTMode=record --module dwd.bootstrap/dwd.bootstrap.Main)
  trap 'podman rm -f "$training" >/dev/null 2>&1 || true' EXIT
  started=$SECONDS
  if [[ $training_run == version ]]; then
    say "training run ($arch$([[ $arch != "$host" ]] && echo ", emulated")): dwd version in the image ..."
    "${train[@]}" --rm "$untrained" "${java_flags[@]}" version >"$dir/aot/training.log" 2>&1 \
      || { tail -20 "$dir/aot/training.log" >&2; fail "the $arch training run failed"; }
  else
    if [[ -z ${seed_server:-} ]]; then
      # shellcheck source=scripts/image-seed.sh
      source "$root/scripts/image-seed.sh"
      seed_start "$out/seed"
    fi
    trap 'podman rm -f "$training" >/dev/null 2>&1 || true; seed_stop' EXIT
    say "training run ($arch): dwd prober in the image against the local kube-apiserver ($seed_server) ..."
    "${train[@]}" -d --network=host -v "$seed_dir/prober-config.yaml:/etc/dwd/config.yaml:ro" \
      -v "$seed_dir/seed.kubeconfig:/etc/dwd/kubeconfig:ro" "$untrained" "${java_flags[@]}" \
      prober --config-file /etc/dwd/config.yaml --kubeconfig /etc/dwd/kubeconfig \
      --metrics-bind-addr="127.0.0.1:$(seed_free_port)" --health-bind-addr="127.0.0.1:$(seed_free_port)" >/dev/null
    # The first probe run and two more (2 s apart), then SIGTERM: the JVM writes the cache as it exits.
    deadline=$((SECONDS + 600))
    until podman logs "$training" 2>&1 | grep -q "$seed_namespace: lease probe"; do
      if (( SECONDS > deadline )) || [[ $(podman inspect --format '{{.State.Running}}' "$training") != true ]]; then
        podman logs "$training" 2>&1 | tail -20 >&2
        fail "the $arch training run did not probe its shoot within 600 s (its last output above)"
      fi
      sleep 1
    done
    sleep 5
    podman stop --time 600 "$training" >/dev/null
  fi
  [[ -s $dir/aot/dwd.aotconf ]] || { podman logs "$training" 2>&1 | tail -20 >&2; fail "the $arch training run recorded nothing"; }
  podman rm -f --ignore "$training" >/dev/null
  "${train[@]}" --rm "$untrained" "${aot_flags[@]}" -XX:AOTMode=create -XX:AOTCache=/aot/dwd.aot \
    --module dwd.bootstrap/dwd.bootstrap.Main >>"$dir/aot/training.log" 2>&1 \
    || { tail -20 "$dir/aot/training.log" >&2; fail "the $arch AOT cache was not written"; }
  [[ -s $dir/aot/dwd.aot ]] || fail "the $arch training run wrote no AOT cache (its output: $dir/aot/training.log)"
  cp -f "$dir/aot/dwd.aot" "$dir/context/dwd.aot"
  say "training run ($arch): $((SECONDS - started)) s, AOT cache $(du -m "$dir/aot/dwd.aot" | cut -f1) MB"
  if [[ $training_run == version ]]; then trap - EXIT; else trap 'seed_stop' EXIT; fi
}
