#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > package.json <<'J'
{
  "name": "plant-tracker",
  "version": "1.2.0",
  "private": true,
  "description": "Remind me when to water the plants",
  "scripts": {
    "start": "node server.js",
    "test": "jest --coverage",
    "build": "esbuild src/app.js --bundle --outfile=dist/app.js",
    "lint": "eslint src"
  },
  "dependencies": {
    "express": "^4.19.2",
    "dayjs": "^1.11.11"
  },
  "devDependencies": {
    "esbuild": "^0.21.5",
    "eslint": "^9.5.0",
    "jest": "^29.7.0"
  },
  "engines": {
    "node": ">=20"
  }
}
J
