#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > export.py <<'PY'
"""Write a contact list as CSV: python3 export.py CONTACTS.json OUT.csv"""

import csv
import json
import sys


def main(source, target):
    with open(source, encoding="utf-8") as f:
        contacts = json.load(f)
    contacts.sort(key=lambda c: (c["name"]["last"], c["name"]["first"]))
    with open(target, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["name", "email", "phone"])
        for contact in contacts:
            name = f"{contact['name']['last']}, {contact['name']['first']}"
            emails = contact.get("emails") or []
            writer.writerow([name, emails[0] if emails else "", contact.get("phone") or ""])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
