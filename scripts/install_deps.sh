#!/usr/bin/env bash
# scripts/install_deps.sh -- installs what sweep needs from Debian/Ubuntu packages, where missing.
# As root it runs apt-get; otherwise it prints the command to run. The CUDA toolkit is optional
# (without it sweep builds CPU-only) and is never installed here.
set -euo pipefail

pkgs=(g++ make cmake libtbb-dev catch2 libbenchmark-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "sweep: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  echo "sweep: installing ${missing[*]} (sudo)"
  sudo apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "sweep: missing packages: ${missing[*]}" >&2
  echo "install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
