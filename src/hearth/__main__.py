"""`python -m hearth`: the same as the `hearth` command."""

from hearth.apps.cli.entry import main

main()
