"""A tiny client for the status service: python3 client.py"""

import urllib.request

BASE_URL = "http://127.0.0.1:8000"
# Seconds to wait for the service before giving up.
TIMEOUT = 5


def status_url(name):
    return f"{BASE_URL}/status/{name}"


def get_status(name):
    with urllib.request.urlopen(status_url(name), timeout=TIMEOUT) as response:
        return response.read().decode()


if __name__ == "__main__":
    print(status_url("web"), "timeout", TIMEOUT)
