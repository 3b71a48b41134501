#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > crontab.txt <<'CRON'
# Jobs for the shop server: minute hour day-of-month month day-of-week command
MAILTO=ops@example.com
PATH=/usr/local/bin:/usr/bin:/bin

# Nightly database backup
45 3 * * * /opt/shop/bin/backup.sh
# Sales report for the office
0 7 * * 1-5 /opt/shop/bin/sales-report.sh --email office@example.com
# Pull stock levels from the warehouse
*/10 * * * * /opt/shop/bin/sync-stock.sh
# Rotate the logs
0 0 * * 0 /opt/shop/bin/rotate-logs.sh
CRON
