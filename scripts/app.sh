# The packaged application as ./dwd runs it, sourced by ./dwd and scripts/build-app (not run directly).
#
#   app_stale_input        prints the first source or pom newer than the last build ("missing" when there is
#                          no build); prints nothing when the build is up to date. A find over src/main and the
#                          poms: a few milliseconds, so ./dwd can afford it on every call.
#   app_build [reason]     builds (scripts/mvn package -DskipTests) under a lock, with one progress line per
#                          module on stderr, then trains the AOT cache.
#   app_check_aot          sets app_aot_flag to the JVM flag that starts from the AOT cache, when it matches the jars.
#   app_java_command       sets the array app_java_command: java and its flags up to the main module (app_main).
#   app_train_aot          trains the AOT cache unless another process is doing it right now.
#
# The AOT cache (JEP 483/514) holds the classes a `dwd version` run loaded and linked; the JVM accepts it
# only with the very jars (path, size, mtime) it was trained with, so it is retrained whenever they change.

app_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
app_dir=$app_root/bootstrap/target
app_jar=$app_dir/dwd.jar
app_stamp=$app_dir/.dwd-built
app_aot=$app_dir/dwd.aot
app_build_log=$app_root/target/build.log

# Sets app_java (and prints it): the JDK 25 that builds and runs dwd.
app_java_home() {
  [[ -n ${app_java:-} ]] || app_java=$("$app_root/scripts/java-home")
  echo "$app_java"
}

# Sets app_java_command (an array): the java command line of the module-path launch, up to --module, with dwd's
# security properties after the JDK's (deploy/dwd.security: the security providers dwd uses).
# The JVM ignores TMPDIR; dwd honours it, as Unix tools do (the tests keep their files out of /tmp so).
# The JVM's perf data (what jps lists; jcmd <pid> works without it) can only live in /tmp: off with TMPDIR.
app_java_command() {
  app_java_home >/dev/null
  app_java_command=("$app_java/bin/java" "@$app_root/deploy/jvm.args"
    -Djava.security.properties="$app_root/deploy/dwd.security" -Ddwd.home="$app_root"
    ${TMPDIR:+"-Djava.io.tmpdir=$TMPDIR" -XX:-UsePerfData} --module-path "$app_jar:$app_dir/libs")
}
app_main=(--module dwd.bootstrap/dwd.bootstrap.Main)

app_stale_input() {
  if [[ ! -f $app_jar || ! -d $app_dir/libs ]]; then echo missing; return; fi
  local reference=$app_jar
  [[ -f $app_stamp && $app_stamp -nt $app_jar ]] && reference=$app_stamp
  local inputs=("$app_root"/pom.xml "$app_root"/*/pom.xml "$app_root"/*/src/main "$app_root"/deploy/crds "$app_root"/deploy/examples)
  local entry first=
  # Names a changed file rather than its directory; a directory alone means a file was removed or renamed.
  while IFS= read -r entry; do
    if [[ -f $entry ]]; then echo "$entry"; return; fi
    first=${first:-$entry}
  done < <(find "${inputs[@]}" -newer "$reference" 2>/dev/null)
  if [[ -n $first ]]; then echo "$first"; fi
}

# Runs "$@" holding an exclusive lock on file $1 (shift), waiting for it; without flock, runs it unlocked.
app_locked() {
  local lock=$1; shift
  mkdir -p "$(dirname "$lock")"
  if command -v flock >/dev/null; then flock "$lock" "$@"; else "$@"; fi
}

app_build() {
  mkdir -p "$app_root/target"
  app_locked "$app_root/target/.build.lock" "$app_root/scripts/build-app" --locked "${1:-requested}"
}

# Sets app_aot_flag to the JVM flag that starts from the AOT cache when the cache matches the jars, the
# JDK, deploy/jvm.args and deploy/dwd.security; to nothing otherwise.
app_check_aot() {
  app_aot_flag=
  [[ -f $app_aot && $app_aot -nt $app_jar && $app_aot -nt $app_root/deploy/jvm.args
    && $app_aot -nt $app_root/deploy/dwd.security && -f $app_aot.java ]] || return 0
  app_java_home >/dev/null
  [[ $(<"$app_aot.java") == "$app_java" ]] || return 0
  [[ -z $(find "$app_dir/libs" -newer "$app_aot" -print -quit) ]] || return 0
  app_aot_flag=-XX:AOTCache=$app_aot
}

app_train_aot() {
  [[ -f $app_jar ]] || return 0
  if command -v flock >/dev/null; then
    # Another ./dwd is training: run without the cache rather than wait.
    flock -n "$app_dir/.aot.lock" "$app_root/scripts/build-app" --train-locked || true
  else
    "$app_root/scripts/build-app" --train-locked || true
  fi
}
