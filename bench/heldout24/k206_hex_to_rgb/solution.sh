#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("colors.py").read()
text = text.replace(
    '    """\n    raise NotImplementedError\n',
    '    """\n'
    '    digits = text[1:]\n'
    '    if not text.startswith("#") or len(digits) not in (3, 6):\n'
    '        raise ValueError(f"not a colour: {text!r}")\n'
    '    if any(char not in "0123456789abcdefABCDEF" for char in digits):\n'
    '        raise ValueError(f"not a colour: {text!r}")\n'
    '    if len(digits) == 3:\n'
    '        digits = "".join(char * 2 for char in digits)\n'
    '    return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4))\n',
)
open("colors.py", "w").write(text)
PY
