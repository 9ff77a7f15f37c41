"""`python -m interpreter` runs the `ruledeck` command line."""

from interpreter.cli import main

main()
