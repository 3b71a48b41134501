#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open(".editorconfig") as f:
    text = f.read()
text = text.replace("indent_size = 4\nmax_line_length = 88\n", "indent_size = 4\n")
text = text.replace("[*.{js,json}]\nindent_style = space\nindent_size = 4\n", "[*.{js,json}]\nindent_style = space\nindent_size = 2\n")
text += "\n[Makefile]\nindent_style = tab\n"
with open(".editorconfig", "w") as f:
    f.write(text)
PY
