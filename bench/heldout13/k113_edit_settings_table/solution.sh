#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("README.md") as f:
    text = f.read()
text = text.replace("| Setting | Default | What it does |", "| Setting | Default | Description |")
text = text.replace(
    "| `timeout` | 30 | Seconds to wait for a server to answer |\n",
    "| `timeout` | 60 | Seconds to wait for a server to answer |\n"
    "| `retries` | 3 | How often to retry a failed download |\n",
)
text = text.replace("| `legacy_mode` | false | Name the files the way version 1 did |\n", "")
with open("README.md", "w") as f:
    f.write(text)
PY
