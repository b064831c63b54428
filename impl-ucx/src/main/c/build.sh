#!/usr/bin/env bash
# build.sh: compiles the JNI glue ibis_ucx.c into <output>/<os>-<arch>/libibis-ucx.so (Maven runs
# it in process-classes, after javac wrote the JNI header; see impl-ucx/pom.xml).
#
# When UCX's header is missing the native part is not built: without --require the build goes on
# (a loud line says so, <output>/<os>-<arch>/libibis-ucx.not-built holds the reason, which
# NativeLibrary reports at run time, and the test excludes file skips every test); with --require
# the build fails.
#
# Usage: build.sh --java-home DIR --jni-include DIR --output DIR --test-excludes FILE
#                 [--header ucp/api/ucp.h] [--require true|false]
#        build.sh --report --output DIR     (repeats the loud line when the part was not built)
set -euo pipefail

java_home="" jni_include="" output="" test_excludes="" header="ucp/api/ucp.h" require=false report=false
while [ $# -gt 0 ]; do
    case "$1" in
        --java-home) java_home=$2; shift 2 ;;
        --jni-include) jni_include=$2; shift 2 ;;
        --output) output=$2; shift 2 ;;
        --test-excludes) test_excludes=$2; shift 2 ;;
        --header) header=$2; shift 2 ;;
        --require) require=$2; shift 2 ;;
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
library="$dir/libibis-ucx.so"
marker="$dir/libibis-ucx.not-built"
source_dir=$(cd "$(dirname "$0")" && pwd -P)

if [ "$report" = true ]; then
    if [ -f "$marker" ]; then
        echo "$(sed -n 2p "$marker"); the tests of impl-ucx are SKIPPED" >&2
    fi
    exit 0
fi

not_built() {
    local line="[ibis-ucx] $1: the native part of impl-ucx was NOT built; $2 and rebuild"
    if [ "$require" = true ]; then
        echo "$line (-Dibis.ucx.require=true)" >&2
        exit 1
    fi
    echo "$line" >&2
    rm -f "$library"
    # Line 1: the reason NativeLibrary reports; line 2: the loud line, for --report.
    printf '%s\n%s\n' "${1/ not found/ missing} when it was built: $2 and rebuild" "$line" > "$marker"
    # Surefire's excludesFile: every test class, the scanned IPL suite's too.
    echo '**/*' > "$test_excludes"
    exit 0
}

mkdir -p "$dir" "$(dirname "$test_excludes")"
rm -f "$marker"
echo '# the native part was built: nothing excluded' > "$test_excludes"

if ! command -v gcc >/dev/null 2>&1; then
    not_built "gcc not found" "install gcc"
fi
if ! echo "#include <$header>" | gcc -E - >/dev/null 2>&1; then
    not_built "${header##*/} not found" "install libucx-dev (scripts/setup)"
fi
jni_h="$java_home/include"
[ -f "$jni_h/jni.h" ] || jni_h="$java_home/../include" # a JRE folder inside a JDK
if [ ! -f "$jni_h/jni.h" ]; then
    not_built "jni.h not found under $java_home" "build with a JDK (not a JRE)"
fi

# Up to date when newer than its inputs (the glue, the JNI header, this script).
if [ -f "$library" ] && [ -z "$(find "$source_dir/ibis_ucx.c" "$source_dir/build.sh" \
        "$jni_include/ibis_impl_ucx_UcxNative.h" -newer "$library" 2>/dev/null)" ]; then
    exit 0
fi
gcc -std=gnu11 -O2 -fPIC -shared -Wall -Wextra -Werror -Wl,-z,defs \
    -I"$jni_h" -I"$jni_h/$os" -I"$jni_include" \
    "$source_dir/ibis_ucx.c" -lucp -lucs -o "$library.tmp"
mv "$library.tmp" "$library"
