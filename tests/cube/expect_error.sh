#!/bin/sh
# Usage: expect_error.sh REGEX COMMAND...  Passes when COMMAND exits nonzero (not by timeout, i.e. no hang)
# and its output matches REGEX (grep -E).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
re=$1; shift
out=$(timeout 60 "$@" 2>&1); rc=$?
if [ $rc -eq 0 ]; then echo "FAIL: exited 0, expected an error matching: $re"; echo "$out"; exit 1; fi
if [ $rc -eq 124 ]; then echo "FAIL: timed out (hang?)"; exit 1; fi
if ! printf '%s\n' "$out" | grep -Eq -- "$re"; then echo "FAIL: rc=$rc but no message matching: $re"; echo "$out" | head -20; exit 1; fi
echo "ok: rc=$rc, message: $(printf '%s\n' "$out" | grep -E -m1 -- "$re")"
