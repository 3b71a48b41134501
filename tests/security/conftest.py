"""The `box` fixture lives in box.py so tests can import its helpers by a unique name."""

from box import box

__all__ = ["box"]
