#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > species.py <<'PY'
import sys

pets = {}
with open(sys.argv[1]) as f:
    for line in f:
        if line.strip():
            name, species, age = line.strip().split(",")
            pets.setdefault(species, []).append((int(age), name))
for species in sorted(pets):
    age, name = max(pets[species])
    count = len(pets[species])
    print(f"{species}: {count} {'pet' if count == 1 else 'pets'}, oldest {name} ({age})")
PY
