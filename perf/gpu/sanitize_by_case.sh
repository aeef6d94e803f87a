#!/usr/bin/env bash
# perf/gpu/sanitize_by_case.sh TOOL TEST... -- compute-sanitizer TOOL over each Catch2 test case of
# each TEST executable as a process of its own, JOBS at a time (default 14), for the executables
# whose whole run does not fit one time limit under the slow tools (racecheck over the radix
# tests: hours of shared-memory atomics instrumentation). Each case under CASE_TIMEOUT (default
# 400 s); SWEEP_TEST_MAX_N as set by the caller (default 15000). One line per case into
# $OUT/summary.md, then a total per executable: cases clean / cases. BUDGET (seconds from the
# start, default 560): no case starts past it, and none runs past it (its timeout is cut to what is
# left); a case not started is listed as NOT RUN.
# Environment: B (build dir, default build-dev), OUT, JOBS, CASE_TIMEOUT, BUDGET.
set -u
tool=$1; shift
OUT=${OUT:-/tmp/out}; B=${B:-$PWD/build-dev}
mkdir -p "$OUT/cases"
export SWEEP_TEST_MAX_N=${SWEEP_TEST_MAX_N:-15000}
jobs_max=${JOBS:-14}
t0=$(date +%s)
left() { echo $(( ${BUDGET:-560} - ($(date +%s) - t0) )); }
one() {  # test, case index, case name
  local f="$OUT/cases/${tool}_$1_$2.log" rc s errs lim
  s=$(date +%s)
  lim=$(left); [ "$lim" -gt "${CASE_TIMEOUT:-400}" ] && lim=${CASE_TIMEOUT:-400}
  timeout -k 5 "$lim" compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$B/test/$1" "$3" >"$f" 2>&1
  rc=$?
  if [ "$tool" = racecheck ]; then
    errs=$(grep -Eo 'RACECHECK SUMMARY: .*\(([0-9]+) error' "$f" | grep -Eo '[0-9]+ error' | grep -Eo '[0-9]+')
  else
    errs=$(grep -Eo 'ERROR SUMMARY: [0-9]+' "$f" | grep -Eo '[0-9]+$')
  fi
  local st="NOT CLEAN"
  if [ $rc -eq 124 ] || [ $rc -eq 137 ] || [ -z "$errs" ]; then st="INCOMPLETE (rc=$rc)"
  elif [ "$errs" -eq 0 ] && grep -q "All tests passed" "$f"; then st=clean; fi
  echo "$tool $1 #$2 '$3': $st, errors ${errs:-?}, $(( $(date +%s) - s )) s, $(grep -E 'All tests passed|test cases:' "$f" | tail -1)" >"$f.line"
}
for t in "$@"; do
  i=0
  while IFS= read -r name; do
    [ -n "$name" ] || continue
    i=$((i + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 0.5; done
    if [ "$(left)" -lt 20 ]; then
      echo "$tool $t #$i '$name': NOT RUN (budget)" >"$OUT/cases/${tool}_${t}_$i.log.line"; continue
    fi
    # Catch2 reads ',' '[' ']' in a test spec as syntax; a backslash escapes them.
    one "$t" "$i" "$(printf '%s' "$name" | sed 's/[],[]/\\&/g')" &
  done < <("$B/test/$t" --list-test-names-only 2>/dev/null | grep -v '^ *$' | grep -v 'matching test cases' | grep -v '^sweep tests: seed')
done
wait
for t in "$@"; do
  cat "$OUT"/cases/${tool}_${t}_*.log.line 2>/dev/null | tee -a "$OUT/summary.md"
  n=$(ls "$OUT"/cases/${tool}_${t}_*.log.line 2>/dev/null | wc -l)
  c=$(cat "$OUT"/cases/${tool}_${t}_*.log.line 2>/dev/null | grep -c ': clean,')
  echo "$tool $t by case: $c of $n cases clean" | tee -a "$OUT/summary.md"
done
(cd "$OUT" && tar czf "logs-cases-$tool.tgz" --remove-files cases 2>/dev/null)
