# Sourced by the bin/ scripts (bash). Expects IBIS_HOME (the repository root, or the folder of an
# unpacked binary distribution) to be set.
# Provides:
#   ibis_prepare   in a source checkout, builds the jars if dist/target/lib (or lib-bench, or
#                  lib-ibisrmi) is missing or older than the sources; in a binary distribution
#                  (lib/ next to bin/, no pom.xml) never builds. Then sets JAVA (the java executable),
#                  IBIS_CLASSPATH (every jar of lib: what a program's class path gets) and
#                  IBIS_BENCH_CLASSPATH (every jar of lib-bench: benchmark-only jars, for ibis-bench)
#   ibis_java_opts prints JAVA_OPTS, with a default log level added when JAVA_OPTS sets none
# Environment:
#   JAVA_HOME      JDK to use (default: java on the PATH)
#   JAVA_OPTS      extra options for the JVM the script starts
#   IBIS_NO_BUILD  when 1, never build (fail if dist/target/lib is missing)

if [ -d "$IBIS_HOME/lib" ] && [ ! -f "$IBIS_HOME/pom.xml" ]; then
    # An unpacked binary distribution: the jars are there, and there is nothing to build them from.
    IBIS_DISTRIBUTION=1
    IBIS_TARGET="$IBIS_HOME"
else
    IBIS_DISTRIBUTION=0
    IBIS_TARGET="$IBIS_HOME/dist/target"
fi
IBIS_LIB="$IBIS_TARGET/lib"
IBIS_BENCH_LIB="$IBIS_TARGET/lib-bench"
IBIS_BUILD_STAMP="$IBIS_LIB/.ibis-build-stamp"

# Prints the first source file (main sources or a pom.xml) newer than the last build, if any.
ibis_newer_source() {
    local ref oldest
    ref=""
    [ -f "$IBIS_BUILD_STAMP" ] && ref="$IBIS_BUILD_STAMP"
    # After a plain `mvn package` (no stamp, or an older one) the oldest Ibis jar tells when the
    # lib folder was last complete; a module whose jar did not change keeps an old time, which at
    # worst costs one extra build, after which the stamp is fresh.
    oldest=$(ls -tr "$IBIS_LIB"/ibis-*.jar 2>/dev/null | head -n 1 || true)
    if [ -n "$oldest" ] && { [ -z "$ref" ] || [ "$oldest" -nt "$ref" ]; }; then
        ref="$oldest"
    fi
    [ -n "$ref" ] || { echo "(no Ibis jar in $IBIS_LIB)"; return; }
    find "$IBIS_HOME" \( -name .git -o -name target -o -name bench-results -o -name node_modules \) -prune \
        -o \( -path '*/src/main/*' -o -name pom.xml \) -type f -newer "$ref" -print -quit 2>/dev/null || true
}

ibis_build() {
    local reason="$1"
    echo "ibis: building the jars first ($reason): mvn -q -B -DskipTests package" >&2
    if ! (cd "$IBIS_HOME" && mvn -q -B -Dstyle.color=never -DskipTests package >&2); then
        echo "ibis: the build failed; see the messages above" >&2
        exit 1
    fi
    touch "$IBIS_BUILD_STAMP"
}

ibis_prepare() {
    if [ "$IBIS_DISTRIBUTION" != 1 ] && [ "${IBIS_NO_BUILD:-0}" != 1 ]; then
        mkdir -p "$IBIS_HOME/dist/target"
        # One build at a time when several scripts start together.
        exec 9>"$IBIS_HOME/dist/target/.ibis-build.lock"
        command -v flock >/dev/null 2>&1 && flock 9
        if [ ! -d "$IBIS_LIB" ]; then
            ibis_build "dist/target/lib does not exist yet"
        elif [ ! -d "$IBIS_BENCH_LIB" ]; then
            # Benchmark-only jars, for bin/ibis-bench (never on a program's class path).
            ibis_build "dist/target/lib-bench does not exist yet"
        elif [ ! -d "$IBIS_HOME/dist/target/lib-ibisrmi" ]; then
            # The rmi suite's rewritten programs (benchmarks' ibisrmi jar), kept off the class path.
            ibis_build "dist/target/lib-ibisrmi does not exist yet"
        else
            local changed
            changed=$(ibis_newer_source)
            if [ -n "$changed" ]; then
                ibis_build "${changed#"$IBIS_HOME"/} changed since the last build"
            fi
        fi
        exec 9>&-
    fi
    if [ ! -d "$IBIS_LIB" ]; then
        if [ "$IBIS_DISTRIBUTION" = 1 ]; then
            echo "ibis: $IBIS_LIB is missing; unpack the whole ibis-VERSION-bin.tar.gz again" >&2
        else
            echo "ibis: $IBIS_LIB is missing; build with: (cd $IBIS_HOME && mvn -DskipTests package)" >&2
        fi
        exit 1
    fi
    IBIS_CLASSPATH=$(ibis_jars "$IBIS_LIB")
    IBIS_BENCH_CLASSPATH=$(ibis_jars "$IBIS_BENCH_LIB")
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
        JAVA="$JAVA_HOME/bin/java"
    else
        JAVA=java
    fi
}

# Prints the jars of a folder as a class path (empty when the folder has none).
ibis_jars() {
    local jar cp=""
    for jar in "$1"/*.jar; do
        [ -e "$jar" ] || continue
        cp="${cp:+$cp:}$jar"
    done
    printf '%s' "$cp"
}

# JAVA_OPTS, plus a default log level (given as $1) unless JAVA_OPTS chooses one.
ibis_java_opts() {
    local opts="${JAVA_OPTS:-}"
    case "$opts" in
        *org.slf4j.simpleLogger.defaultLogLevel*) ;;
        *) opts="-Dorg.slf4j.simpleLogger.defaultLogLevel=$1 $opts" ;;
    esac
    printf '%s' "$opts"
}
