#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf '\n## License\n\nThis project is released under the MIT License.\n' >> README.md
