#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/"port": 5000/"port": 8080/; s/"debug": true/"debug": false/' config.json
