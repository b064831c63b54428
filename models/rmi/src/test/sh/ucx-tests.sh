#!/usr/bin/env bash
# ucx-tests.sh: decides whether the rmi module's multi-process tests run a second time over ucx
# (Surefire execution "ucx-multi-process", see models/rmi/pom.xml), the way impl-ucx's build.sh
# decides for impl-ucx's own tests: when the ibis-impl-ucx on the test class path has no native
# library for this platform (its build found no UCX header), they are skipped with a loud line,
# or, with --require true (-Dibis.ucx.require=true, as CI passes), the build fails.
#
# models/gmi runs it too, for its own multi-process tests (--module ibis-gmi names the module in
# the line it prints).
#
# Usage: ucx-tests.sh --artifact PATH --excludes FILE [--require true|false] [--module NAME]
#   PATH: the resolved ibis-impl-ucx (its classes folder in a reactor build, else its jar)
#   FILE: the Surefire excludesFile of that execution, written here: empty, or every test
set -euo pipefail

artifact="" excludes="" require=false module=ibis-rmi
while [ $# -gt 0 ]; do
    case "$1" in
        --artifact) artifact=$2; shift 2 ;;
        --excludes) excludes=$2; shift 2 ;;
        --require) require=$2; shift 2 ;;
        --module) module=$2; shift 2 ;;
        *) echo "ucx-tests.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -n "$artifact" ] && [ -n "$excludes" ] || { echo "ucx-tests.sh: --artifact and --excludes are needed" >&2; exit 2; }

# The platform folder, named as impl-ucx's build.sh and NativeLibrary name it.
os=$(uname -s | tr '[:upper:]' '[:lower:]')
case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) arch=$(uname -m) ;;
esac
entry="native/$os-$arch"

reason=""
if [ -d "$artifact" ]; then
    if [ ! -f "$artifact/$entry/libibis-ucx.so" ]; then
        if [ -f "$artifact/$entry/libibis-ucx.not-built" ]; then
            reason=$(sed -n 1p "$artifact/$entry/libibis-ucx.not-built")
        else
            reason="$artifact has no $entry/libibis-ucx.so: rebuild impl-ucx"
        fi
    fi
elif [ -f "$artifact" ]; then
    listing=$(unzip -Z1 "$artifact" 2>/dev/null || jar tf "$artifact")
    if ! grep -qx "$entry/libibis-ucx.so" <<<"$listing"; then
        if grep -qx "$entry/libibis-ucx.not-built" <<<"$listing" && command -v unzip >/dev/null 2>&1; then
            reason=$(unzip -p "$artifact" "$entry/libibis-ucx.not-built" | sed -n 1p)
        else
            reason="$artifact has no $entry/libibis-ucx.so: rebuild impl-ucx"
        fi
    fi
else
    reason="ibis-impl-ucx not found at '$artifact'"
fi

mkdir -p "$(dirname "$excludes")"
if [ -z "$reason" ]; then
    echo '# the native part of impl-ucx was built: nothing excluded' > "$excludes"
    exit 0
fi
line="[$module] impl-ucx has no native library ($reason): the multi-process tests over ucx are SKIPPED"
if [ "$require" = true ]; then
    echo "${line/are SKIPPED/cannot run} (-Dibis.ucx.require=true)" >&2
    exit 1
fi
echo "$line" >&2
echo '**/*' > "$excludes"
