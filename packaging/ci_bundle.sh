#!/usr/bin/env bash
# CI: build the Linux bundle (packaging/build.py: in its own runtime-only venv from the lock;
# it fails on a missing tool, a missing library, a stale notices file or a glibc/libstdc++
# need above the Linux baseline), then run its self-test with the network cut off when the
# machine allows it (`unshare -n`: a new, empty network namespace — proves the frozen app
# needs no network for the window, the engine, the embedder or the keyring fallback).
# Exit status: non-zero when the build or the self-test fails.
#
#   packaging/ci_bundle.sh            # build + offline self-test
#   LEXMEM_SKIP_BUILD=1 packaging/ci_bundle.sh   # self-test an existing dist/lexmem
set -euo pipefail

cd "$(dirname "$0")/.."
PY="${PYTHON:-python}"

if [[ "${LEXMEM_SKIP_BUILD:-0}" != "1" ]]; then
    "$PY" packaging/build.py
fi

EXE="dist/lexmem/lexmem"
REPORT="build/selftest_report.json"
mkdir -p build
rm -f "$REPORT"
export QT_QPA_PLATFORM=offscreen

# unshare -n needs CAP_SYS_ADMIN or unprivileged user namespaces (-r maps us to root in it)
runner=()
if unshare -n true 2>/dev/null; then
    runner=(unshare -n)
elif unshare -r -n true 2>/dev/null; then
    runner=(unshare -r -n)
else
    echo "ci_bundle: NOTE: cannot create a network namespace here (unshare -n refused);" \
         "running the self-test WITH network access" >&2
fi

if [[ ${#runner[@]} -gt 0 ]]; then
    # prove the cut without sending anything anywhere: inside the namespace the only
    # network interface is the loopback
    "${runner[@]}" "$PY" -c "
import socket, sys
names = [name for _i, name in socket.if_nameindex()]
sys.exit(0 if names in ([], ['lo']) else f'network interfaces inside unshare -n: {names}')
"
    echo "ci_bundle: self-test offline (${runner[*]})"
fi

set +e
"${runner[@]}" "$EXE" --selftest --selftest-report "$REPORT" > build/selftest_stdout.txt 2> build/selftest_stderr.txt
rc=$?
set -e

if [[ -s "$REPORT" ]]; then
    cat "$REPORT"
else
    echo "ci_bundle: no self-test report; stderr follows" >&2
    tail -n 60 build/selftest_stderr.txt >&2
fi
if [[ $rc -ne 0 ]]; then
    echo "ci_bundle: frozen self-test FAILED (exit $rc)" >&2
    tail -n 30 build/selftest_stderr.txt >&2
    exit "$rc"
fi
[[ -f build/bundle_stats.json ]] && echo "ci_bundle: bundle stats $(cat build/bundle_stats.json | tr -d '\n')"
echo "ci_bundle: OK"
