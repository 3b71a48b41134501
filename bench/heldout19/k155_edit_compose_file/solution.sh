#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("docker-compose.yml").read()
text = text.replace('"8000:8000"', '"8080:8000"').replace("postgres:15", "postgres:16")
text = text.replace('      DEBUG: "1"\n', '      DEBUG: "1"\n      TZ: Europe/London\n')
start = text.index("  adminer:")
text = text[:start] + text[text.index("volumes:\n  pgdata:"):]
open("docker-compose.yml", "w").write(text)
PY
