#!/usr/bin/env bash
# run_if_gpu.sh PROBE COMMAND...: runs COMMAND when PROBE sees a CUDA device; otherwise says
# why and exits 77, which CTest reports as "Skipped" (not as a pass).
probe=$1; shift
if ! out=$("$probe" 2>&1) || echo "$out" | grep -q '"device_count": *0'; then
  echo "SKIPPED: no usable CUDA GPU on this machine (${out:-probe failed})"
  exit 77
fi
exec "$@"
