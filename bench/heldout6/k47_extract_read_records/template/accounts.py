"""Load users and groups from colon-separated files."""


def load_users(path):
    users = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [field.strip() for field in line.split(":")]
            users[fields[0]] = fields[1]
    return users


def load_groups(path):
    groups = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [field.strip() for field in line.split(":")]
            groups[fields[0]] = fields[1].split(",") if fields[1] else []
    return groups


if __name__ == "__main__":
    print(load_users("users.txt"))
    print(load_groups("groups.txt"))
