#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("logging.ini").read()
for old, new in [
    ("keys = console\n", "keys = console, logfile\n"),
    ("keys = plain\n", "keys = plain, timed\n"),
    ("[logger_sync]\nlevel = INFO\nhandlers = console\n", "[logger_sync]\nlevel = DEBUG\nhandlers = console, logfile\n"),
    ("class = StreamHandler\nlevel = INFO\n", "class = StreamHandler\nlevel = WARNING\n"),
    ("args = (sys.stderr,)\n", "args = (sys.stderr,)\n\n; Everything the sync does, with the time.\n[handler_logfile]\nclass = FileHandler\nlevel = DEBUG\nformatter = timed\nargs = ('sync.log',)\n"),
]:
    assert old in text, old
    text = text.replace(old, new, 1)
text += "\n[formatter_timed]\nformat = %(asctime)s %(levelname)s %(name)s: %(message)s\n"
open("logging.ini", "w").write(text)
PY
