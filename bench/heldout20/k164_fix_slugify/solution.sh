#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/re.sub(r"\[^a-z0-9\]", "-", slug)/re.sub(r"[^a-z0-9]+", "-", slug)/; s/slug = f"{slugify(title)}{n}"/slug = f"{slugify(title)}-{n}"/' slug.py
