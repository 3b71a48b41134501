"""The `box` fixture lives in box.py so tests can import its helpers by a unique name."""

from security.box import box

__all__ = ["box"]
