"""Fetch a feed, trying again when a download fails."""

from settings import BACKOFF_SECONDS, MAX_RETRIES


def wait_times(retries=MAX_RETRIES):
    """The seconds to wait before each retry, doubling from BACKOFF_SECONDS."""
    return [BACKOFF_SECONDS * 2**i for i in range(retries)]


def fetch(get, url):
    """Call get(url) until it returns something other than None, at most 1 + MAX_RETRIES times.

    Returns the result and how many retries it took."""
    for attempt in range(1 + MAX_RETRIES):
        result = get(url)
        if result is not None:
            return result, attempt
    raise RuntimeError(f"gave up on {url} after {MAX_RETRIES} retries")


if __name__ == "__main__":
    print("retries:", MAX_RETRIES)
    print("waits:", wait_times())
