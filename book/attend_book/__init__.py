"""attend-book: the mkdocs plugin that builds the book (`plugin.BookPlugin`) and what it runs on.

It is a distribution of its own (book/pyproject.toml), never imported by the `attend` package,
and it lives outside `docs/` because `pytest --markdown-docs docs` imports every `.py` file there.
"""
