#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("flashcards.py", encoding="utf-8").read()
start, end = text.index("def next_interval"), text.index("def main():")
moved = text[start:end].rstrip() + "\n"
open("scheduling.py", "w", encoding="utf-8").write(
    '"""When flashcards come back."""\n\nfrom datetime import date, timedelta\n\n\n' + moved
)
text = text[:start] + text[end:]
text = text.replace(
    "from datetime import date, timedelta\n", "from datetime import date\n\nfrom scheduling import due_cards, due_date, next_interval\n"
)
open("flashcards.py", "w", encoding="utf-8").write(text)
PY
sed -i 's/^from flashcards import/from scheduling import/' test_flashcards.py
