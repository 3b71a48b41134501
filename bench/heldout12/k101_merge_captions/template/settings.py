"""Settings for the photo gallery page."""

DEFAULTS = {
    "title": "My photos",
    "per_page": 20,
}
