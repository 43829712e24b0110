# What each architecture's image is made of besides the runtime (sourced by scripts/image): the base, the
# launcher, the SBOM, and whether this machine can build and run the architecture at all.
#
#   arch_unbuildable ARCH   prints why this machine cannot build ARCH's image (nothing when it can): a
#                           foreign ARCH needs emulation registered (qemu-user-static, binfmt-support), apt's
#                           package lists for it (dpkg --add-architecture) and its cross gcc
#   arch_base ARCH          sets base_tar: glibc and base-files of ARCH from Debian's .debs, user nonroot
#                           (65532), /tmp; a tarball kept in the cache, named after the package versions
#   arch_launcher ARCH OUT  compiles deploy/image/dependency-watchdog.c for ARCH, statically linked
#   arch_sbom ARCH DIR OUT  the application's CycloneDX SBOM plus what ARCH's image adds: its Java runtime
#                           (DIR/runtime.env and the JVM's own properties, DIR/java.properties) and Debian packages

declare -A arch_qemu=([arm64]=qemu-aarch64 [amd64]=qemu-x86_64)
declare -A arch_gnu=([arm64]=aarch64-linux-gnu [amd64]=x86_64-linux-gnu)
# libc6 and what it depends on (libgcc-s1), and base-files (/etc/os-release, for scanners). The JVM
# links nothing else: its zlib is bundled, and it brings its own CA certificates and time zones.
base_packages=(base-files libc6 libgcc-s1)
base_recipe_version=2 # bump when arch_build_base changes what it writes

arch_host() { dpkg --print-architecture; }

arch_unbuildable() {
  local arch=$1 binfmt candidate
  [[ $arch == "$(arch_host)" ]] && return 0
  [[ -n ${arch_qemu[$arch]:-} ]] || { echo "dwd's image is built for amd64 and arm64, not $arch"; return 0; }
  binfmt=/proc/sys/fs/binfmt_misc/${arch_qemu[$arch]}
  if [[ $(head -1 "$binfmt" 2>/dev/null) != enabled ]]; then
    echo "$arch emulation is not registered (apt-get install -y qemu-user-static binfmt-support; update-binfmts --enable ${arch_qemu[$arch]})"
  elif ! grep -q '^flags:.*F' "$binfmt"; then
    echo "$arch emulation is registered without the F flag, so containers cannot use it (reinstall qemu-user-static)"
  elif ! command -v "${arch_gnu[$arch]}-gcc" >/dev/null; then
    echo "no cross compiler for the $arch launcher (apt-get install -y gcc-${arch_gnu[$arch]} libc6-dev-$arch-cross)"
  elif candidate=$(apt-cache policy "libc6:$arch" 2>/dev/null | awk '/Candidate:/ {print $2}'); [[ -z $candidate || $candidate == "(none)" ]]; then
    echo "apt knows no $arch packages (dpkg --add-architecture $arch && apt-get update)"
  fi
}

arch_base() {
  local arch=$1 versions
  versions=$(apt-cache policy "${base_packages[@]/%/:$arch}" 2>/dev/null | awk '/^[^ ]/ {p=$1; sub(/:.*/, "", p)} /Candidate:/ {print p ":" $2}' | tr '\n' ' ')
  [[ $versions != *"(none)"* && $(wc -w <<<"$versions") -eq ${#base_packages[@]} ]] \
    || fail "apt does not know ${base_packages[*]} for $arch (versions: ${versions:-none}); run apt-get update"
  base_versions[$arch]=$versions
  base_tar=$cache/base-$(echo "$base_recipe_version $arch $versions" | sha256sum | cut -c1-16).tar
  if [[ ! -f $base_tar ]]; then
    say "base ($arch): extracting ${base_packages[*]} ($versions) from Debian's packages ..."
    arch_build_base "$arch"
  fi
}

arch_build_base() {
  local arch=$1 work rootfs deb package
  work=$(mktemp -d "$cache/.base.XXXXXX")
  rootfs=$work/rootfs
  mkdir -p "$rootfs/var/lib/dpkg/status.d"
  (cd "$work" && apt-get download -o APT::Sandbox::User=root "${base_packages[@]/%/:$arch}" >/dev/null) \
    || { rm -rf "$work"; fail "apt-get download ${base_packages[*]} ($arch) failed"; }
  for deb in "$work"/*.deb; do
    dpkg-deb -x "$deb" "$rootfs"
    package=$(dpkg-deb -f "$deb" Package)
    # What dpkg would record, so image scanners find the packages (as distroless images do).
    { dpkg-deb -f "$deb" Package Version Architecture Maintainer Source Homepage; echo "Status: install ok installed"; } \
      > "$rootfs/var/lib/dpkg/status.d/$package"
  done
  # Documentation goes, licences stay; so do glibc's iconv modules (gconv, 8 MB): Java converts charsets itself.
  find "$rootfs/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete 2>/dev/null || true
  rm -rf "$rootfs/usr/share/man" "$rootfs/usr/share/info" "$rootfs/usr/share/lintian" "$rootfs/usr/share/locale" \
    "$rootfs"/usr/lib/*-linux-gnu/gconv
  mkdir -p "$rootfs/tmp" "$rootfs/home/nonroot" "$rootfs/etc"
  chmod 1777 "$rootfs/tmp"
  chown 65532:65532 "$rootfs/home/nonroot"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$rootfs/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$rootfs/etc/group"
  # The same packages give the same bytes: sorted entries, fixed times and owners.
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --pax-option=delete=atime,delete=ctime \
    -C "$rootfs" -cf "$work/base.tar" .
  mv -f "$work/base.tar" "$base_tar"
  rm -rf "$work"
}

# /usr/local/bin/dependency-watchdog, the command gardenlet runs: the image has no shell, so a static C
# program execs the JVM with the image's argfiles (docs/decisions-image.md, "The image's command").
arch_launcher() {
  local arch=$1 output=$2 gcc=gcc
  [[ $arch == "$(arch_host)" ]] || gcc=${arch_gnu[$arch]}-gcc
  command -v "$gcc" >/dev/null || fail "$gcc not found; it compiles the image's launcher (Debian: apt-get install -y gcc libc6-dev)"
  "$gcc" -static -Os -s -std=c11 -Wall -Wextra -Werror -o "$output" "$root/deploy/image/dependency-watchdog.c" \
    || fail "the launcher deploy/image/dependency-watchdog.c does not compile for $arch (a static build needs libc6-dev${gcc%gcc})"
}

# A java.properties line's value (java -XshowSettings:properties), or empty.
arch_java_property() { sed -n "s/^ *$2 = //p" "$1" | head -1; }

arch_sbom() {
  local arch=$1 dir=$2 output=$3 package version components
  command -v jq >/dev/null || fail "jq not found; it writes the SBOM of each architecture (apt-get install -y jq)"
  # shellcheck disable=SC1091
  source "$dir/runtime.env"
  components=$(
    jq -n --arg name "$(arch_java_property "$dir/java.properties" java.vm.name)" \
      --arg vendor "$(arch_java_property "$dir/java.properties" java.vendor)" \
      --arg version "$(arch_java_property "$dir/java.properties" java.runtime.version)" \
      --arg distribution "$(arch_java_property "$dir/java.properties" java.vendor.version)" \
      --arg source "$JAVA_SOURCE" --arg sourceSha "$JAVA_SOURCE_SHA256" --arg sha "$JAVA_SHA256" \
      --arg license "$JAVA_LICENSE" --arg arch "$arch" '{
        type: "platform", "bom-ref": "java-runtime", supplier: {name: $vendor}, name: "java-runtime",
        version: $version, description: "\($name), \($distribution), in /opt/java",
        licenses: [if ($license | startswith("see ")) then {license: {name: $license}} else {expression: $license} end],
        hashes: [{alg: "SHA-256", content: $sha}],
        properties: [{name: "dev.dwd.java.distribution", value: $distribution},
                     {name: "dev.dwd.java.source", value: $source},
                     {name: "dev.dwd.java.source.sha256", value: $sourceSha},
                     {name: "dev.dwd.java.sha256", value: "\($sha) (of /opt/java: the sorted sha256sum of its files)"},
                     {name: "dev.dwd.image.architecture", value: $arch}]}'
    for package in ${base_versions[$arch]}; do
      version=${package#*:}
      package=${package%%:*}
      jq -n --arg name "$package" --arg version "$version" --arg arch "$arch" '{
        type: "library", "bom-ref": "deb-\($name)", name: $name, version: $version,
        purl: "pkg:deb/debian/\($name)@\($version | @uri)?arch=\($arch)&distro=debian-12"}'
    done)
  jq --argjson added "$(jq -s . <<<"$components")" --arg arch "$arch" \
    '.components = $added + .components | .metadata.properties = ((.metadata.properties // []) + [{name: "dev.dwd.image.platform", value: "linux/\($arch)"}])' \
    "$app_dir/dwd-sbom.cdx.json" > "$output"
}
