#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("README.md").read()
section = (
    "## Contributing\n\n"
    "Bug reports and pull requests are welcome. The tests run with:\n\n"
    "    python3 -m pytest\n\n"
)
text = text.replace("## License\n", section + "## License\n", 1)
open("README.md", "w").write(text)
PY
