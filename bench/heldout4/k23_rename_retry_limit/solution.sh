#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/MAX_RETRIES/RETRY_LIMIT/g' settings.py fetcher.py test_fetcher.py
