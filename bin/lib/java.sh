# Finds a JDK for Puddle. Sourced by bin/puddle-local and .ci/run, so that both pick the same one.
#
#   puddle_find_jdk MIN   prints the home of the newest JDK whose major version is MIN or more,
#                         or, when none is found, prints to stderr which version is needed and
#                         where it looked, and returns 1.
#   puddle_java_major JAVA  prints the major version of a java executable (8, 17, 21, 25...).
#
# Candidates, in this order (the first of several of the same version wins): $JAVA_HOME, every
# java on the PATH, then the usual install folders, or the folders of $PUDDLE_JAVA_DIRS
# (colon-separated patterns) instead of them. The newest qualifying one is chosen, since some
# modules do more on a newer JDK.

puddle_java_dirs_default() {
  printf '%s\n' \
    "/usr/lib/jvm/*" \
    "/usr/java/*" \
    "/opt/java/*" \
    "/opt/jdk*" \
    "/Library/Java/JavaVirtualMachines/*/Contents/Home" \
    "$HOME/Library/Java/JavaVirtualMachines/*/Contents/Home" \
    "$HOME/.sdkman/candidates/java/*" \
    "$HOME/.jdks/*" \
    "$HOME/.asdf/installs/java/*" \
    "/opt/homebrew/opt/openjdk*/libexec/openjdk.jdk/Contents/Home" \
    "/usr/local/opt/openjdk*/libexec/openjdk.jdk/Contents/Home"
}

# The major version of a "x.y.z" (or legacy "1.x.y_z") version string.
puddle_major_of() {
  local version="${1#\"}"
  version="${version%\"}"
  case "$version" in
    1.*) version="${version#1.}" ;;
  esac
  version="${version%%[!0-9]*}"
  printf '%s' "$version"
}

puddle_java_major() {
  local java="$1" home release version
  # a JDK's release file says its version without starting a JVM
  home="$(cd "$(dirname "$java")/.." 2>/dev/null && pwd -P)"
  release="$home/release"
  if [ -f "$release" ]; then
    version="$(sed -n 's/^JAVA_VERSION=//p' "$release" | head -n 1)"
  fi
  if [ -z "${version:-}" ]; then
    version="$("$java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)"
  fi
  puddle_major_of "$version"
}

# The JDK home of a java executable, links followed.
puddle_java_home_of() {
  local java="$1" target
  while [ -L "$java" ]; do
    target="$(readlink "$java")"
    case "$target" in
      /*) java="$target" ;;
      *) java="$(dirname "$java")/$target" ;;
    esac
  done
  (cd "$(dirname "$java")/.." 2>/dev/null && pwd -P)
}

puddle_find_jdk() {
  local min="$1" best="" best_major=0 looked="" candidate major dir pattern
  local -a candidates=()
  if [ -n "${JAVA_HOME:-}" ]; then
    candidates+=("$JAVA_HOME")
  fi
  local IFS_SAVED="$IFS"
  IFS=:
  for dir in $PATH; do
    if [ -n "$dir" ] && [ -x "$dir/java" ] && [ ! -d "$dir/java" ]; then
      candidate="$(puddle_java_home_of "$dir/java")"
      [ -n "$candidate" ] && candidates+=("$candidate")
    fi
  done
  if [ -n "${PUDDLE_JAVA_DIRS:-}" ]; then
    local -a patterns=()
    for pattern in $PUDDLE_JAVA_DIRS; do patterns+=("$pattern"); done
  fi
  IFS="$IFS_SAVED"
  if [ -z "${PUDDLE_JAVA_DIRS:-}" ]; then
    local -a patterns=()
    while IFS= read -r pattern; do patterns+=("$pattern"); done < <(puddle_java_dirs_default)
  fi
  for pattern in "${patterns[@]}"; do
    for dir in $pattern; do
      [ -d "$dir" ] && candidates+=("$dir")
    done
  done

  local seen=" "
  for candidate in ${candidates[@]+"${candidates[@]}"}; do
    [ -x "$candidate/bin/java" ] || continue
    candidate="$(cd "$candidate" && pwd -P)"
    case "$seen" in *" $candidate "*) continue ;; esac
    seen="$seen$candidate "
    major="$(puddle_java_major "$candidate/bin/java")"
    looked="$looked, $candidate (${major:-unknown})"
    if [ -n "$major" ] && [ "$major" -ge "$min" ] && [ "$major" -gt "$best_major" ]; then
      best="$candidate"
      best_major="$major"
    fi
  done
  if [ -z "$best" ]; then
    local where="\$JAVA_HOME, the PATH, ${patterns[*]}"
    echo "Puddle needs a JDK $min or newer and found none (looked in $where${looked:+; found ${looked#, }}); install one or set JAVA_HOME to it." >&2
    return 1
  fi
  printf '%s\n' "$best"
}
