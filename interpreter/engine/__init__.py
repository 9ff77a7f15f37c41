"""The generic engine: a Game (static, compiled) and its States (dynamic, with their own random generator)."""

from interpreter import native as _native

_native.activate(__path__)  # a compiled build of some modules, when one was made from this source (native.py)
