"""Build-time helpers for the book: the mkdocs hooks, the prose-number checker, the math renderer.

Nothing in here is part of the `attend` package and nothing in here is shipped with it. It lives
outside `docs/` on purpose: `pytest --markdown-docs docs` imports every `.py` file under `docs/`.
"""
