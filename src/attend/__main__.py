"""`python -m attend` is the `attend` command."""

from attend.cli import main

raise SystemExit(main())
