"""Print the settings the app would start with, read from .env (KEY=value lines)."""


def load_env(path=".env"):
    settings = {}
    with open(path) as f:
        for line in f:
            if "=" in line and not line.startswith("#"):
                key, value = line.strip().split("=", 1)
                settings[key] = value
    return settings


if __name__ == "__main__":
    settings = load_env()
    print(f"database: {settings['DATABASE_URL']}")
    print(f"mail key set: {'MAIL_API_KEY' in settings}")
