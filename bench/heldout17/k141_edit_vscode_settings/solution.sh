#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
import json

path = ".vscode/settings.json"
with open(path) as f:
    data = json.load(f)
data["editor.formatOnSave"] = True
data["files.exclude"]["**/__pycache__"] = True
del data["python.linting.enabled"]
data["editor.rulers"] = [100]
with open(path, "w") as f:
    json.dump(data, f, indent=4)
    f.write("\n")
PY
