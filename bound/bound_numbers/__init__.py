"""bound-numbers: every number a page's prose writes, held to the expression that computes it.

A page writes the literal and, right after it, the expression it quotes (`3.125{= ratio}`); the
mkdocs / ProperDocs plugin (`plugin.BoundNumbersPlugin`) reads each page's numbers, has each
expression evaluated in the page's namespace by a provider (`values.Provider`), reports every
number that no longer matches in one line, and strips the bindings before anything renders.
`bound-numbers renumber` (`cli.py`) rewrites the numbers whose values moved.
"""
