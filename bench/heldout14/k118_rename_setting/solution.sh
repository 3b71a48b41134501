#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/"max_items":/"page_size":/' config.json
sed -i 's/config\["max_items"\]/config["page_size"]/' app.py
