"""Fetches new orders from the web shop and adds them to the order book (a stand-in for now)."""

import logging
import logging.config

logging.config.fileConfig("logging.ini")
log = logging.getLogger("sync")


def sync(orders):
    log.debug("fetched %d orders", len(orders))
    for order in orders:
        if order.get("total", 0) <= 0:
            log.warning("order %s has no total, skipped", order["id"])
            continue
        log.info("order %s added", order["id"])


if __name__ == "__main__":
    sync([{"id": "A100", "total": 25.0}, {"id": "A101"}, {"id": "A102", "total": 9.5}])
