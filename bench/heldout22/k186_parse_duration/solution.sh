#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("durations.py").read()
text = text.replace(
    '    """\n    raise NotImplementedError\n',
    '    """\n'
    '    match = re.fullmatch(r"(?:(\\d+)h)? *(?:(\\d+)m)? *(?:(\\d+)s)?", text)\n'
    '    if not match or not any(match.groups()):\n'
    '        raise ValueError(f"not a duration: {text!r}")\n'
    '    hours, minutes, seconds = (int(part or 0) for part in match.groups())\n'
    '    return hours * 3600 + minutes * 60 + seconds\n',
)
text = text.replace('"""\n\n\ndef format_duration', '"""\n\nimport re\n\n\ndef format_duration', 1)
open("durations.py", "w").write(text)
PY
