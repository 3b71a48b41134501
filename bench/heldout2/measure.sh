#!/bin/bash
# One trial per agent per task on the second held-out suite, task by task (each agent in turn on
# the same task), stopping before a run could pass END (a UTC time like 01:50): the model server
# is shared, and another user has it outside the measuring window.
#   bench/heldout2/measure.sh END OUT [agents...]     (agents default: aider hearth)
# The server, its log and the other agents come from the environment: MODEL_URL, SERVER_LOG,
# AIDER, MINI (defaults: bench/start_model_server.sh's URL and log, and aider/mini on PATH).
set -u
WINDOW=$1
END=$(date -u -d "$WINDOW" +%s)
OUT=$2
shift 2
AGENTS=${*:-aider hearth}
cd "$(dirname "$0")/../.."
URL=${MODEL_URL:-http://127.0.0.1:18090/v1}
LOG=${SERVER_LOG:-bench/out/server.log}
AIDER=${AIDER:-aider}
MINI=${MINI:-mini}
BUDGET=225 # 180 s per task, Hearth's 30 s grace, and the wait for a killed request to end
ORDER="k01 ex_mean_absolute_deviation k02 ex_sum_product k03 ex_greatest_common_divisor k04 ex_string_sequence
k05 ex_max_element k06 ex_is_palindrome k07 ex_below_threshold k08 ex_common k09 k10"
for name in $ORDER; do
  case $name in ex_*) tasks=bench/heldout2/exercises ;; *) tasks=bench/heldout2 ;; esac
  for agent in $AGENTS; do
    if [ -e "$OUT/$agent/$name/results-$agent.json" ]; then continue; fi
    if [ $(($(date -u +%s) + BUDGET)) -gt "$END" ]; then
      echo "$(date -u +%T) stop: no time for $agent on $name before $WINDOW"
      exit 0
    fi
    echo "$(date -u +%T) $agent $name load $(cut -d' ' -f1-3 /proc/loadavg)"
    .venv/bin/hearth bench run --model-url $URL --tasks $tasks --only "$name" --agent "$agent" \
      --aider "$AIDER" --mini "$MINI" --timeout 180 \
      --out "$OUT/$agent/$name" --server-log $LOG 2>&1 | grep -E '^(PASS|fail) '
  done
done
echo "$(date -u +%T) all tasks done"
