"""A page's HTML as print-site gathers it into the whole-book page, read in time linear in its size.

print-site finds the ids it renames with the pattern `<([^\\s]+).*?id=\\"([^\\"]*?)\\".*?>` over each
page's HTML. From each `<`, it tries every end of the unbroken run of characters (no whitespace)
that follows, and from each scans on to the end of the line: a tag followed by a long run on a long
line costs their product. One cell printing 1 MB without a space (`<pre>` and the megabyte on one
line) kept a strict build running past 300 s; MathML, whose tags follow each other without a space,
and highlighted listings, with dozens of tags a line, were a third of a warm build.

So each tag print-site is handed ends its line: a newline just before its `>`, which the HTML parser
reads as the whitespace it is allowed to be there, so that from each `<` both the run and the line
end within its own tag. Left whole: a tag holding an attribute print-site's patterns look for on
the tag's own line (`id`, `name`, `for`, `loading`), and what `<script>` and `<style>` hold. The
reader's page stays as it was (the plugin hands print-site this copy only).
"""

from __future__ import annotations

import re

# A start or end tag up to its `/>` or `>`, unless it holds an attribute print-site reads on its
# line: the line end goes where the match ends, its `/` kept last.
TAG = re.compile(r"</?[A-Za-z][^\s<>/]*(?:\s(?![^<>]*\b(?:id|name|for|loading)=)[^<>]*?)?(?=/?>)")
RAW = re.compile(r"<(script|style)\b.*?</\1\s*>", re.DOTALL | re.IGNORECASE)  # left as they are


def lines(html: str) -> str:
    """`html` with a line end before the `>` of each tag print-site may scan (see the module)."""
    out, at = [], 0
    for raw in RAW.finditer(html):
        out += [_ended(html[at : raw.start()]), raw[0]]
        at = raw.end()
    return "".join([*out, _ended(html[at:])])


def _ended(html: str) -> str:
    return TAG.sub(lambda tag: f"{tag[0]}\n", html)  # a function: a third faster than a template
