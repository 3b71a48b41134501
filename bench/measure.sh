#!/bin/bash
# One trial per agent per task on a held-out suite (bench/heldout2, bench/heldout3), task by task
# (each agent in turn on the same task), stopping before a run could pass END (a UTC time like
# 01:50): the model server is shared, and another user has it outside the measuring window.
#   bench/measure.sh SUITE END OUT [agents...]     (agents default: aider hearth)
# Agents: aider, mini, hearth (its defaults), hearth:text / hearth:native / hearth:grammar (that
# tool mode, with the small profile).
# The order interleaves the suite's multi-step tasks (SUITE/*/) with its exercises
# (SUITE/exercises/*/), each list in name order, so a window cut short still samples both kinds.
# A task whose OUT/AGENT/TASK/results-AGENT.json exists is skipped, so rerunning continues.
# The server, its log and the agents come from the environment: MODEL_URL, SERVER_LOG, AIDER,
# MINI, HEARTH (defaults: bench/start_model_server.sh's URL and log, aider/mini on PATH, and
# this checkout's .venv/bin/hearth).
set -u
if [ $# -lt 3 ]; then
  echo "usage: bench/measure.sh SUITE END OUT [agents...]   e.g. bench/measure.sh bench/heldout3 01:50 out" >&2
  exit 2
fi
SUITE=$(realpath -m "$1")
WINDOW=$2
END=$(date -u -d "$WINDOW" +%s) || exit 2
OUT=$(realpath -m "$3")
shift 3
AGENTS=${*:-aider hearth}
if [ ! -d "$SUITE" ]; then
  echo "no suite folder $SUITE (give one like bench/heldout3)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
URL=${MODEL_URL:-http://127.0.0.1:18090/v1}
LOG=${SERVER_LOG:-bench/out/server.log}
AIDER=${AIDER:-aider}
MINI=${MINI:-mini}
HEARTH=${HEARTH:-.venv/bin/hearth}
BUDGET=225 # 180 s per task, Hearth's 30 s grace, and the wait for a killed request to end

names() { # the folders under $1 that hold a task.toml, in name order
  for toml in "$1"/*/task.toml; do
    if [ -e "$toml" ]; then basename "$(dirname "$toml")"; fi
  done
}
mapfile -t STEPS < <(names "$SUITE")
mapfile -t EXERCISES < <(names "$SUITE/exercises")
ORDER=()
for ((i = 0; i < ${#STEPS[@]} || i < ${#EXERCISES[@]}; i++)); do
  if [ "$i" -lt ${#STEPS[@]} ]; then ORDER+=("${STEPS[$i]}"); fi
  if [ "$i" -lt ${#EXERCISES[@]} ]; then ORDER+=("${EXERCISES[$i]}"); fi
done
if [ ${#ORDER[@]} -eq 0 ]; then
  echo "no tasks (folders with task.toml) in $SUITE or $SUITE/exercises" >&2
  exit 2
fi

for name in "${ORDER[@]}"; do
  if [ -e "$SUITE/$name/task.toml" ]; then tasks=$SUITE; else tasks=$SUITE/exercises; fi
  for agent in $AGENTS; do
    # hearth:MODE is Hearth with tool_mode MODE (text, native, grammar) and the small profile
    runner=${agent%%:*}
    mode_env=()
    if [ "$runner" != "$agent" ]; then mode_env=(HEARTH_TOOL_MODE="${agent#*:}" HEARTH_MODEL_PROFILE=small); fi
    if [ -e "$OUT/$agent/$name/results-$runner.json" ]; then continue; fi
    if [ $(($(date -u +%s) + BUDGET)) -gt "$END" ]; then
      echo "$(date -u +%T) stop: no time for $agent on $name before $WINDOW"
      exit 0
    fi
    echo "$(date -u +%T) $agent $name load $(cut -d' ' -f1-3 /proc/loadavg)"
    env "${mode_env[@]}" "$HEARTH" bench run --model-url "$URL" --tasks "$tasks" --only "$name" --agent "$runner" \
      --aider "$AIDER" --mini "$MINI" --timeout 180 \
      --out "$OUT/$agent/$name" --server-log "$LOG" 2>&1 | grep -E '^(PASS|fail) '
  done
done
echo "$(date -u +%T) all tasks done"
