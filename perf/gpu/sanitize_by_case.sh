#!/usr/bin/env bash
# perf/gpu/sanitize_by_case.sh TOOL TEST... -- compute-sanitizer TOOL over each Catch2 test case of
# each TEST executable as a process of its own, JOBS at a time (default 14), for the executables
# whose whole run does not fit one time limit under the slow tools (racecheck over the radix
# tests: hours of shared-memory atomics instrumentation). Each case under CASE_TIMEOUT (default
# 400 s); SWEEP_TEST_MAX_N as set by the caller (default 15000). One line per case into
# $OUT/summary.md (the verdict of run_reliability.sh's runs: perf/gpu/sanitize_lib.sh), then a
# total per executable: cases clean / cases. BUDGET (seconds from the start, default 560): no case
# starts past it, and none runs past it (its limit is cut to what is left); a case not started is
# listed as NOT RUN.
# Environment: B (build dir, default build-dev), OUT, JOBS, CASE_TIMEOUT, BUDGET.
set -u
tool=$1; shift
OUT=${OUT:-/tmp/out}; B=${B:-$PWD/build-dev}
. "$(dirname "$0")/sanitize_lib.sh"  # san_one
mkdir -p "$OUT/cases"
export SWEEP_TEST_MAX_N=${SWEEP_TEST_MAX_N:-15000}
t0=$(date +%s)
left() { echo $(( ${BUDGET:-560} - ($(date +%s) - t0) )); }
for t in "$@"; do
  i=0
  while IFS= read -r name; do
    i=$((i + 1))
    while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-14}" ]; do sleep 0.5; done
    lim=$(left)
    if [ "$lim" -lt 20 ]; then
      echo "$tool $t '$name': NOT RUN (budget)" >"$OUT/cases/san_${tool}_${t}_$i.line"; continue
    fi
    [ "$lim" -gt "${CASE_TIMEOUT:-400}" ] && lim=${CASE_TIMEOUT:-400}
    # Catch2 reads ',' '[' ']' in a test spec as syntax; a backslash escapes them.
    OUT="$OUT/cases" san_one "$tool" "$t" "$lim" "$(printf '%s' "$name" | sed 's/[],[]/\\&/g')" "${t}_$i" &
  done < <("$B/test/$t" --list-test-names-only 2>/dev/null |
           grep -v -e '^ *$' -e 'matching test cases' -e '^sweep tests: seed')
done
wait
for t in "$@"; do
  cat "$OUT"/cases/san_${tool}_${t}_*.line 2>/dev/null | tee -a "$OUT/summary.md"
  n=$(ls "$OUT"/cases/san_${tool}_${t}_*.line 2>/dev/null | wc -l)
  c=$(cat "$OUT"/cases/san_${tool}_${t}_*.line 2>/dev/null | grep -c ': clean,')
  echo "$tool $t by case: $c of $n cases clean" | tee -a "$OUT/summary.md"
done
(cd "$OUT" && tar czf "logs-cases-$tool.tgz" --remove-files cases 2>/dev/null)
