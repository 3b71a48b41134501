#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/add_song/enqueue/g' playlist.py radio.py test_playlist.py
