#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf '{"base_url": "http://localhost:8000/api", "timeout": 10}\n' > config.json
cat > client.py <<'PY'
"""Prints the requests this client would make."""

import json

with open("config.json") as f:
    CONFIG = json.load(f)
BASE_URL = CONFIG["base_url"]
TIMEOUT = CONFIG["timeout"]


def describe(path):
    return f"GET {BASE_URL}/{path} (timeout {TIMEOUT}s)"


if __name__ == "__main__":
    print(describe("users"))
    print(describe("orders"))
PY
