"""`python -m attend` is the `attend` command."""

from attend.book.cli import main

raise SystemExit(main())
