"""The ruleset expression language: grammar, AST, checker and compiler."""
