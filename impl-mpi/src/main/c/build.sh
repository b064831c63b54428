#!/usr/bin/env bash
# build.sh: compiles the JNI glue ibis_mpi.c twice (Maven runs it in process-classes, after javac
# wrote the JNI header; see impl-mpi/pom.xml):
#   with Open MPI's compiler wrapper (mpicc.openmpi) into <output>/<os>-<arch>/libibis-mpi.so
#   with MPICH's (mpicc.mpich) into <output>/<os>-<arch>/libibis-mpi-mpich.so
# The wrappers are named explicitly: the "mpicc" alternative may point to either.
#
# When an MPI's compiler wrapper or mpi.h is missing that build is skipped: without --require a
# loud line says so, <output>/<os>-<arch>/<library>.not-built holds the reason (NativeLibrary
# reports it at run time) and the test excludes file skips the tests that need it (all of them for
# Open MPI, the MPICH ones for MPICH); with --require (Open MPI) or --mpich-require (MPICH) the build
# fails. The Open MPI Java bindings test is excluded likewise when --bindings-sources has no
# MPI.java (module ibis-mpi-java, which fails itself under -Dibis.mpi.require=true).
#
# Usage: build.sh --java-home DIR --jni-include DIR --output DIR --test-excludes FILE
#                 [--bindings-sources DIR] [--header mpi.h] [--openmpi-cc mpicc.openmpi]
#                 [--mpich-cc mpicc.mpich] [--require true|false] [--mpich-require true|false]
#        build.sh --report --output DIR     (repeats the loud lines of what was not built)
set -euo pipefail

java_home="" jni_include="" output="" test_excludes="" bindings_sources="" header="mpi.h"
openmpi_cc="mpicc.openmpi" mpich_cc="mpicc.mpich" require=false mpich_require=false report=false
while [ $# -gt 0 ]; do
    case "$1" in
        --java-home) java_home=$2; shift 2 ;;
        --jni-include) jni_include=$2; shift 2 ;;
        --output) output=$2; shift 2 ;;
        --test-excludes) test_excludes=$2; shift 2 ;;
        --bindings-sources) bindings_sources=$2; shift 2 ;;
        --header) header=$2; shift 2 ;;
        --openmpi-cc) openmpi_cc=$2; shift 2 ;;
        --mpich-cc) mpich_cc=$2; shift 2 ;;
        --require) require=$2; shift 2 ;;
        --mpich-require) mpich_require=$2; shift 2 ;;
        --report) report=true; shift ;;
        *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

# The platform folder: the same names as NativeLibrary.platform() computes from os.name/os.arch.
os=$(uname -s | tr '[:upper:]' '[:lower:]')
case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) arch=$(uname -m) ;;
esac
dir="$output/$os-$arch"
source_dir=$(cd "$(dirname "$0")" && pwd -P)

if [ "$report" = true ]; then
    for marker in "$dir"/*.not-built; do
        [ -f "$marker" ] && echo "$(sed -n 2p "$marker")" >&2
    done
    exit 0
fi

mkdir -p "$dir" "$(dirname "$test_excludes")"
echo '# written by src/main/c/build.sh: the tests whose native part or classes are missing' > "$test_excludes"

# not_built LIBRARY REQUIRE EXCLUDES REASON FIX: reports a build that cannot be made.
not_built() {
    local library=$1 required=$2 excludes=$3 reason=$4 fix=$5
    local line="[ibis-mpi] $reason: $library was NOT built; $fix and rebuild"
    if [ "$required" = true ]; then
        echo "$line (required: -Dibis.mpi.require / -Dibis.mpi.mpich.require)" >&2
        exit 1
    fi
    echo "$line" >&2
    rm -f "$dir/$library"
    # Line 1: the reason NativeLibrary reports; line 2: the loud line, for --report.
    printf '%s\n%s\n' "$reason when it was built: $fix and rebuild" "$line; its tests are SKIPPED" \
        > "$dir/${library%.so}.not-built"
    echo "$excludes" >> "$test_excludes"
}

jni_h="$java_home/include"
[ -f "$jni_h/jni.h" ] || jni_h="$java_home/../include" # a JRE folder inside a JDK

# build LIBRARY FLAVOUR CC REQUIRE EXCLUDES FIX: compiles the glue with one MPI's compiler wrapper.
build() {
    local library=$1 flavour=$2 cc=$3 required=$4 excludes=$5 fix=$6
    rm -f "$dir/${library%.so}.not-built"
    if ! command -v "$cc" >/dev/null 2>&1; then
        not_built "$library" "$required" "$excludes" "$cc not found" "$fix"
        return
    fi
    if ! echo "#include <$header>" | "$cc" -x c -E - >/dev/null 2>&1; then
        not_built "$library" "$required" "$excludes" "$header not found by $cc" "$fix"
        return
    fi
    if [ ! -f "$jni_h/jni.h" ]; then
        not_built "$library" "$required" "$excludes" "jni.h not found under $java_home" "build with a JDK (not a JRE)"
        return
    fi
    # Up to date when newer than its inputs (the glue, the JNI header, this script).
    if [ -f "$dir/$library" ] && [ -z "$(find "$source_dir/ibis_mpi.c" "$source_dir/build.sh" \
            "$jni_include/ibis_impl_mpi_MpiNative.h" -newer "$dir/$library" 2>/dev/null)" ]; then
        return
    fi
    "$cc" -std=gnu11 -O2 -fPIC -shared -Wall -Wextra -Werror -Wl,-z,defs \
        -DIBIS_MPI_FLAVOUR="\"$flavour\"" -I"$jni_h" -I"$jni_h/$os" -I"$jni_include" \
        "$source_dir/ibis_mpi.c" -ldl -o "$dir/$library.tmp"
    mv "$dir/$library.tmp" "$dir/$library"
}

build libibis-mpi.so openmpi "$openmpi_cc" "$require" '**/*' \
    "install Open MPI's libopenmpi-dev (scripts/setup)"
build libibis-mpi-mpich.so mpich "$mpich_cc" "$mpich_require" '**/*Mpich*' \
    "install MPICH's libmpich-dev (scripts/setup)"

if [ -n "$bindings_sources" ] && [ ! -f "$bindings_sources/MPI.java" ]; then
    echo "[ibis-mpi] the Open MPI Java classes were not fetched: the tests of the Open MPI Java bindings are SKIPPED; run scripts/fetch-ompi-java and rebuild" >&2
    echo '**/*OpenMpiJavaBindings*' >> "$test_excludes"
fi
