#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/"target": "ES2017"/"target": "ES2022"/; s/"lib": \["ES2017", "DOM"\]/"lib": ["ES2022", "DOM"]/' tsconfig.json
sed -i 's/    "allowJs": true,/    "strict": true,/' tsconfig.json
sed -i 's/"exclude": \["node_modules"\]/"exclude": ["node_modules", "dist"]/' tsconfig.json
