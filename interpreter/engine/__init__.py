"""The generic engine: a Game (static, compiled) and its States (dynamic, with their own random generator)."""
