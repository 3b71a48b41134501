"""Print the version: python3 version.py"""

from pathlib import Path

print("meter", Path(__file__).with_name("VERSION").read_text().strip())
