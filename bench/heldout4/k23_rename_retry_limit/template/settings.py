"""Settings for the feed fetcher."""

# How many times a failed download is tried again before giving up.
MAX_RETRIES = 3
BACKOFF_SECONDS = 2
