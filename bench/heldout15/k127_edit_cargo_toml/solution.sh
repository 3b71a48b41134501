#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("Cargo.toml") as f:
    text = f.read()
text = text.replace('version = "0.3.2"', 'version = "0.4.0"').replace('edition = "2018"', 'edition = "2021"')
text = text.replace('tempfile = "3.10"\nwalkdir = "2"\n', 'walkdir = "2"\nserde = { version = "1", features = ["derive"] }\n')
text = text.replace('assert_cmd = "2.0"\n', 'assert_cmd = "2.0"\ntempfile = "3.10"\n')
with open("Cargo.toml", "w") as f:
    f.write(text)
PY
