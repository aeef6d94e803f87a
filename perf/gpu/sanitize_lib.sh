# perf/gpu/sanitize_lib.sh -- sourced by run_reliability.sh and sanitize_by_case.sh: one run of a
# GPU test executable (or of one of its Catch2 cases) under a compute-sanitizer tool, and its
# verdict line. Needs OUT and B (the build directory).

catch_totals() { grep -E "All tests passed|test cases:|No tests ran|assertions:" "$1" | tail -2 | tr -s ' \n' ' '; }

# san_one TOOL TEST LIMIT [CASE KEY]: TEST (or only its Catch2 test spec CASE) under TOOL for at
# most LIMIT seconds; writes its summary line to $OUT/san_TOOL_KEY.line (KEY: TEST by default):
#   TOOL TEST ['CASE']: clean|skipped (size cap)|NOT CLEAN|INCOMPLETE, device errors D, CUDA API
#   errors A, tests pass|FAIL|?, S s, ...
# Device errors: memory, initcheck, synccheck and racecheck reports, leaks (ERROR SUMMARY less the
# API errors; racecheck: the errors of its RACECHECK SUMMARY). CUDA API errors ("Program hit ...")
# are listed apart: some tests provoke them on purpose (a synchronizing call inside a capture).
san_one() {
  local tool=$1 t=$2 lim=$3 spec=${4:-} key=${5:-$2} extra="" s rc f total api dev tests st rsum
  f="$OUT/san_${tool}_$key.log"
  [ "$tool" = memcheck ] && extra="--leak-check full"
  extra="$extra ${SAN_EXTRA:-}"  # more compute-sanitizer options (e.g. --force-blocking-launches)
  s=$(date +%s)
  timeout -k 10 "$lim" compute-sanitizer --tool "$tool" $extra --error-exitcode 9 "$B/test/$t" ${spec:+"$spec"} >"$f" 2>&1
  rc=$?
  total=$(grep -Eo 'ERROR SUMMARY: [0-9]+' "$f" | tail -1 | grep -Eo '[0-9]+$')
  api=$(grep -c '^========= Program hit' "$f")
  rsum=$(grep -Eo 'RACECHECK SUMMARY: .*' "$f" | tail -1)
  if [ "$tool" = racecheck ] && [ -n "$rsum" ]; then
    dev=$(echo "$rsum" | grep -Eo '\([0-9]+ error' | grep -Eo '[0-9]+')
    rsum=" ($rsum)"
  elif [ -n "$total" ]; then
    dev=$(( total - api )); rsum=""
  else
    dev=""
  fi
  if grep -q "All tests passed" "$f"; then tests=pass
  elif grep -Eq "test cases:.*failed|assertions:.*failed" "$f"; then tests=FAIL
  else tests="?"; fi
  if [ -z "$dev" ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    # No summary: cut short (timeout) or crashed. Count the error records printed so far.
    st="INCOMPLETE (rc=$rc$( [ $rc -ge 124 ] && echo ", timeout ${lim} s"))"
    dev="$(grep -Ec '^========= (Invalid|Uninitialized|Barrier|Error|Race|Leaked|Cuda|Malloc|Fatal)' "$f") so far"
  elif [ "$dev" -eq 0 ] && [ "$tests" = pass ]; then st=clean
  elif [ "$dev" -eq 0 ] && [ $rc -eq 0 ] && grep -q "assertions: - none -" "$f"; then
    # Every case skipped itself under SWEEP_TEST_MAX_N (the *_large tests: their point is n past
    # 2^31, run at full size without a sanitizer by `tests`).
    st="skipped (size cap)"
  else st="NOT CLEAN (rc=$rc)"; fi
  echo "$tool $t${spec:+ '$spec'}: $st, device errors $dev, CUDA API errors $api, tests $tests, $(( $(date +%s) - s )) s$rsum, $(catch_totals "$f")$(grep -m1 -Eo 'SKIPPED[^:]*: .*' "$f")" >"$OUT/san_${tool}_$key.line"
}
