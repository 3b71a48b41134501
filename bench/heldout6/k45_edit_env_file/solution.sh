#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i -e 's/^DB_HOST=localhost$/DB_HOST=db.internal/' -e '/^OLD_API_KEY=/d' \
  -e 's/^DEBUG=true$/DEBUG=false\nLOG_LEVEL=info/' -e 's/^SMTP_PORT=25$/SMTP_PORT=587/' app.env
