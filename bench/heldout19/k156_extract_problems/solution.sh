#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("password.py").read()
start = text.index("def main():")
end = text.index('\n\nif __name__')
new = '''def problems(password):
    found = []
    if len(password) < 8:
        found.append("shorter than 8 characters")
    if not any(c.isdigit() for c in password):
        found.append("no digit")
    if not any(c.isupper() for c in password):
        found.append("no capital letter")
    if password.lower() in COMMON:
        found.append("too common")
    return found


def main():
    found = problems(sys.argv[1])
    for problem in found:
        print(f"- {problem}")
    if not found:
        print("looks fine")
'''
open("password.py", "w").write(text[:start] + new + text[end:])
PY
