"""``python -m generator``: the rulebook command line."""

from .cli import main

raise SystemExit(main())
