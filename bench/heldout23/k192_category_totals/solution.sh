#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
printf 'books: 31.40\nfood: 58.25\nrent: 900.00\ntransport: 23.10\n' > totals.txt
