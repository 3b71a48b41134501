#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/        if seconds > size:/        if seconds >= size:/' ago.py
sed -i 's/            return f"{count} {name}s ago"/            return f"{count} {name}{\x27\x27 if count == 1 else \x27s\x27} ago"/' ago.py
