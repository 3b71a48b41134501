#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > accounts.py <<'PY'
"""Load users and groups from colon-separated files."""


def read_records(path):
    records = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            records.append([field.strip() for field in line.split(":")])
    return records


def load_users(path):
    users = {}
    for fields in read_records(path):
        users[fields[0]] = fields[1]
    return users


def load_groups(path):
    groups = {}
    for fields in read_records(path):
        groups[fields[0]] = fields[1].split(",") if fields[1] else []
    return groups


if __name__ == "__main__":
    print(load_users("users.txt"))
    print(load_groups("groups.txt"))
PY
