#!/usr/bin/env bash
# check-sources.sh: says whether the Open MPI Java sources this module compiles were fetched (Maven
# runs it in generate-sources; see pom.xml). When they were not, the module builds an empty jar:
# without --require a loud line says so, with --require true the build fails.
#
# Usage: check-sources.sh --sources DIR [--require true|false]
set -euo pipefail

sources="" require=false
while [ $# -gt 0 ]; do
    case "$1" in
        --sources) sources=$2; shift 2 ;;
        --require) require=$2; shift 2 ;;
        *) echo "check-sources.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

if [ -f "$sources/MPI.java" ]; then
    exit 0
fi
line="[ibis-mpi] the Open MPI Java classes were NOT fetched (no $sources/MPI.java): ibis-mpi-java is an EMPTY jar and impl-mpi has no Open MPI bindings backend; run scripts/fetch-ompi-java (or scripts/setup) and rebuild"
if [ "$require" = true ]; then
    echo "$line (-Dibis.mpi.require=true)" >&2
    exit 1
fi
echo "$line" >&2
