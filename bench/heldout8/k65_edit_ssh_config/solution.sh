#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > ssh_config <<'CONF'
# SSH hosts for the team's servers.
Host build
    HostName build.example.com
    User ci
    Port 2222
    IdentityFile ~/.ssh/build_key

Host db
    HostName db.internal
    User postgres
    LocalForward 5432 localhost:5432

Host backup
    HostName backup.example.com
    User archive

Host *
    ServerAliveInterval 60
    AddKeysToAgent yes
CONF
