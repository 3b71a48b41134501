#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("hugo.toml").read()
text = text.replace('baseURL = "http://localhost:1313/"', 'baseURL = "https://greenway-allotments.org/"')
text = text.replace("paginate = 5", "paginate = 10").replace("show_reading_time = false", "show_reading_time = true")
text = text.replace(
    "  weight = 1\n\n",
    '  weight = 1\n\n[[menu.main]]\n  name = "Plots"\n  url = "/plots/"\n  weight = 2\n\n',
)
open("hugo.toml", "w").write(text)
PY
