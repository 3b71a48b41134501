#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > appsettings.json <<'JSON'
{
  "name": "inventory-service",
  "environments": ["dev", "staging", "prod"],
  "logging": {
    "level": "warning",
    "file": "logs/app.log"
  },
  "database": {
    "host": "localhost",
    "port": 5432,
    "timeout_seconds": 10
  },
  "features": {
    "export": true,
    "beta_ui": true
  }
}
JSON
