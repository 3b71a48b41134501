"""Prints the requests this client would make."""

BASE_URL = "http://localhost:8000/api"
TIMEOUT = 10


def describe(path):
    return f"GET {BASE_URL}/{path} (timeout {TIMEOUT}s)"


if __name__ == "__main__":
    print(describe("users"))
    print(describe("orders"))
