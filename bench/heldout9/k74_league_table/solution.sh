#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > table.py <<'PY'
import json
import sys


def main(path):
    with open(path) as f:
        matches = json.load(f)
    if not matches:
        print("no matches")
        return
    teams = {}
    for match in matches:
        home_goals, away_goals = (int(n) for n in match["score"].split("-"))
        for team, scored, against in ((match["home"], home_goals, away_goals), (match["away"], away_goals, home_goals)):
            row = teams.setdefault(team, [0, 0, 0])
            if scored > against:
                row[0] += 1
            elif scored == against:
                row[1] += 1
            else:
                row[2] += 1
    table = sorted(teams.items(), key=lambda item: (-(3 * item[1][0] + item[1][1]), item[0]))
    for team, (won, drawn, lost) in table:
        print(f"{team}: {3 * won + drawn} points ({won} won, {drawn} drawn, {lost} lost)")


main(sys.argv[1])
PY
