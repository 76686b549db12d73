#!/usr/bin/env bash
# Lints the Swift sources with the toolchain's swift-format (`Scripts/format.sh --fix` rewrites them).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--fix" ]; then
  swift format format --in-place --recursive Sources Tests
else
  swift format lint --recursive Sources Tests
fi
