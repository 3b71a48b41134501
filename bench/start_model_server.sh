#!/usr/bin/env bash
# Start a real model server for the task suite on a machine of our kind (2 cores, no GPU):
# llama-cpp-python[server] built from PyPI with portable flags, the embedded default model
# (HEARTH_EMBEDDED_MODEL chooses which; or HEARTH_MODEL_PATH), a fixed context size and prefix caching. Its log records, per request,
# how many prompt tokens it evaluated and how many it took from its cache; pass that log to
# `hearth bench run --server-log` so the results show each agent's prefill.
#
#   bench/start_model_server.sh [PORT] [N_CTX]      # prints the URL; the log is bench/out/server.log
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${1:-18090}
N_CTX=${2:-8192}
VENV=${HEARTH_BENCH_VENV:-.venv}
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
if ! "$VENV/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
  if [ "$(uname -m)" = "x86_64" ]; then
    export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DLLAVA_BUILD=OFF"
  fi
  "$VENV/bin/pip" install --no-cache-dir -e '.[local]'
fi
MODEL=$("$VENV/bin/python" -c 'from hearth.runtime.config import user_data_path; from hearth.llm.embedded import DEFAULT_MODEL, ensure_model; import os, pathlib; p = os.environ.get("HEARTH_MODEL_PATH"); print(ensure_model(user_data_path(), pathlib.Path(p) if p else None, os.environ.get("HEARTH_EMBEDDED_MODEL") or DEFAULT_MODEL))')
mkdir -p bench/out
"$VENV/bin/python" -m llama_cpp.server --model "$MODEL" --model_alias local --host 127.0.0.1 --port "$PORT" \
  --n_ctx "$N_CTX" --n_threads "$(nproc)" --n_threads_batch "$(nproc)" --interrupt_requests false \
  > bench/out/server.log 2>&1 &
for _ in $(seq 1 120); do
  if curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null; then
    echo "http://127.0.0.1:$PORT/v1"
    exit 0
  fi
  sleep 1
done
echo "the server did not start; see bench/out/server.log" >&2
exit 1
