#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i -E 's/btn-primary([^a-zA-Z0-9_-]|$)/btn-main\1/g' index.html style.css
