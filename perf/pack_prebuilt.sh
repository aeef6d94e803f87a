#!/usr/bin/env bash
# perf/pack_prebuilt.sh BUILD_DIR ARCHIVE [REGEX] -- the executables of a build (GPU tests, CPU
# tests, benches, examples), stripped, into one xz tarball with their paths relative to BUILD_DIR,
# for `perf/device_stage.sh prebuilt:ARCHIVE` on the GPU machine. The development machines build
# with gcc 12 / glibc 2.36 (Debian 12); the GPU machine has gcc 13 / glibc 2.39, which runs them;
# oneTBB, Catch2 and Google Benchmark come from the same Debian packages (.deps) on both.
# Building here (2 cores, ~30 min for everything) instead of there (16 cores, ~4 min) saves the
# device budget, which is the scarcer of the two. REGEX (default .) narrows the executables.
set -eu
b=$1; out=$2; re=${3:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$b" && find test perf examples -maxdepth 2 -type f -perm -u+x \
    \( -name 'test_*' -o -name 'sweep_*' -o -name 'demo*' -o -name 'example*' \) 2>/dev/null) |
  grep -E "$re" | while read -r f; do
    mkdir -p "$tmp/$(dirname "$f")"
    strip -o "$tmp/$f" "$b/$f" 2>/dev/null || cp "$b/$f" "$tmp/$f"
  done
mkdir -p "$(dirname "$out")"
tar -C "$tmp" -cJf "$out" .
echo "$(tar -tJf "$out" | grep -vc '/$') executables, $(du -h "$out" | cut -f1) -> $out"
