#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i -e 's/^retention_days: 7$/retention_days: 14/' \
    -e 's|^  - /etc$|  - /etc\n  - /var/www|' \
    -e 's/ops@example.com/backup@example.com/' \
    -e '/^  on_success: true$/d' backup.yml
