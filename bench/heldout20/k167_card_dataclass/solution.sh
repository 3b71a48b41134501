#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
import re

text = open("board.py").read()
text = text.replace(
    '''def make_card(title, column="todo", points=1, tags=None):
    return {"title": title, "column": column, "points": points, "tags": tags or []}
''',
    '''@dataclass
class Card:
    title: str
    column: str = "todo"
    points: int = 1
    tags: list = field(default_factory=list)
''',
)
text = text.replace('COLUMNS = ["todo"', 'from dataclasses import dataclass, field\n\nCOLUMNS = ["todo"')
text = re.sub(r'card\["(\w+)"\]', r"card.\1", text)
text = text.replace("make_card(", "Card(")
open("board.py", "w").write(text)

test = open("test_board.py").read()
test = test.replace("import make_card, move", "import Card, move").replace("make_card(", "Card(")
test = re.sub(r'card\["(\w+)"\]', r"card.\1", test)
open("test_board.py", "w").write(test)
PY
