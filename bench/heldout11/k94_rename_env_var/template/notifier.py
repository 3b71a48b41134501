"""Send a short push message to my phone: python3 notifier.py MESSAGE"""

import os
import sys

API_URL = "https://push.example.com/v1/send"


def api_key():
    key = os.environ.get("NOTIFY_KEY", "").strip()
    if not key:
        raise SystemExit("notifier: set NOTIFY_KEY to your push service key")
    return key


def build_request(message):
    return {"url": API_URL, "headers": {"Authorization": f"Bearer {api_key()}"}, "text": message}


if __name__ == "__main__":
    print(build_request(" ".join(sys.argv[1:]) or "ping"))
