#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > standings.py <<'PY'
import sys


def plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


games, wins = {}, {}
with open(sys.argv[1]) as f:
    for line in f:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        _date, _game, players, winner = (part.strip() for part in line.split("|"))
        for player in players.split(","):
            player = player.strip()
            games[player] = games.get(player, 0) + 1
            wins.setdefault(player, 0)
        wins[winner] = wins.get(winner, 0) + 1
for player in sorted(games, key=lambda p: (-wins[p], p)):
    print(f"{player}: {plural(wins[player], 'win')} in {plural(games[player], 'game')}")
PY
