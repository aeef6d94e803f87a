#!/usr/bin/env bash
# scripts/build_tsan_tbb.sh [PREFIX] -- builds oneTBB with ThreadSanitizer (its CMake option
# TBB_SANITIZE=thread) into PREFIX (default /work/tsan-tbb/prefix; keep it out of the repository),
# for scripts/sanitize.sh tsan (TSAN_TBB=PREFIX). The sources are the distribution's source
# package of the libtbb-dev installed here, so that headers and library agree with what sweep is
# normally built against (Debian 12: onetbb 2021.8.0). Needs deb-src entries for apt (on Debian 12:
# a copy of /etc/apt/sources.list.d/debian.sources with "Types: deb-src", then apt-get update).
# Only libtbb is built (no tbbmalloc, no hwloc binding, no tests): a few minutes on 2 cores.
set -euo pipefail
prefix=${1:-/work/tsan-tbb/prefix}
top=$(dirname "$prefix")
mkdir -p "$top/src"
ver=$(dpkg-query -W -f='${Version}' libtbb-dev 2>/dev/null || true)
cd "$top/src"
if ! ls -d onetbb-*/ >/dev/null 2>&1; then
  apt-get source --download-only "onetbb${ver:+=$ver}"
  dpkg-source -x onetbb_*.dsc
fi
srcdir=$(ls -d "$top"/src/onetbb-*/ | head -1)
cmake -S "$srcdir" -B "$top/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBB_SANITIZE=thread \
      -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBB_STRICT=OFF -DTBBMALLOC_BUILD=OFF \
      -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON -DCMAKE_INSTALL_PREFIX="$prefix"
cmake --build "$top/build" -j"${SWEEP_JOBS:-$(nproc)}"
cmake --install "$top/build"
echo "TSan oneTBB installed in $prefix: scripts/sanitize.sh tsan (TSAN_TBB=$prefix)"
