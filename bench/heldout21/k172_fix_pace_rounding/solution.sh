#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("pace.py").read()
text = text.replace(
    """    hours, rest = divmod(int(secs), 3600)
    minutes = rest // 60
    left = round(secs - hours * 3600 - minutes * 60)
""",
    """    hours, rest = divmod(round(secs), 3600)
    minutes, left = divmod(rest, 60)
""",
)
open("pace.py", "w").write(text)
PY
cat >> test_pace.py <<'PY'


def test_no_sixty_seconds():
    assert pace(10, "49:57") == "5:00"
    assert clock(3599.6) == "1:00:00"
PY
