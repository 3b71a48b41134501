#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("utils.py") as f:
    text = f.read()
start, end = text.index("def parse_date"), text.index("def truncate")
months = text.index("MONTHS = ")
months_end = text.index("\n", months) + 1
dates = '"""Dates for the events page."""\n\nimport datetime\n\n' + text[months:months_end] + "\n\n" + text[start:end].rstrip() + "\n"
with open("dates.py", "w") as f:
    f.write(dates)
rest = text[:start] + text[end:]
rest = rest.replace(text[months:months_end] + "\n\n", "").replace("import datetime\n\n", "")
rest = rest.replace('"""Helpers for the events page: text and dates."""', '"""Text helpers for the events page."""')
with open("utils.py", "w") as f:
    f.write(rest)
PY
sed -i 's/^from utils import format_date, parse_date, slugify, truncate$/from dates import format_date, parse_date\nfrom utils import slugify, truncate/' app.py
