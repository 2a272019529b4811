"""The copy of a page that print-site gathers into the whole-book page (`attend_book.printed`):
the same page to a browser, and the same ids renamed, with each tag's line ended before its `>`."""

from __future__ import annotations

from html.parser import HTMLParser

from mkdocs_print_site_plugin.urls import fix_internal_links  # type: ignore[import-untyped]

from attend_book.printed import lines

PAGE = (
    '<h2 id="the-score-square">The score square<a class="headerlink" href="#the-score-square">¶</a></h2>\n'
    '<p>A row of <math display="inline"><msub><mi>W</mi><mi>Q</mi></msub></math>, then a '
    '<a href="../positions/#where">link</a> and a note<sup id="fnref:1"><a href="#fn:1">1</a></sup>.</p>\n'
    '<div class="tabbed-set"><input checked="checked" id="__tabbed_1_1" name="__tabbed_1" type="radio">'
    '<label for="__tabbed_1_1">Python</label></div>\n'
    '<img alt="the head" loading="lazy" src="../figures/head.svg"><br/>\n'
    '<pre><code><span class="n">x</span> = 1\n' + "x" * 5_000 + "</code></pre>\n"
    "<script>if (a<b && c>d) { render('<p>'); }</script>\n"
    "<style>p > code { color: red; }</style>\n"
    '<ol><li id="fn:1"><p>Said once.<a class="footnote-backref" href="#fnref:1">↩</a></p></li></ol>\n'
)


Attributes = tuple[tuple[str, str | None], ...]


class Events(HTMLParser):
    """What a browser's parser reads from HTML: each tag with its attributes, and the text, joined."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.read: list[tuple[str, str, Attributes]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.read.append(("start", tag, tuple(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.read.append(("start and end", tag, tuple(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.read.append(("end", tag, ()))

    def handle_data(self, data: str) -> None:
        if self.read and self.read[-1][0] == "text":
            data = self.read.pop()[1] + data
        self.read.append(("text", data, ()))


def test_the_printed_copy_reads_as_the_same_tags_attributes_and_text() -> None:
    printed = lines(PAGE)
    assert printed != PAGE and "\n>" in printed  # its tags' lines are ended
    assert Events(printed).read == Events(PAGE).read


def test_the_printed_copy_keeps_scripts_and_styles_as_written() -> None:
    printed = lines(PAGE)
    assert "<script>if (a<b && c>d) { render('<p>'); }</script>" in printed
    assert "<style>p > code { color: red; }</style>" in printed


def test_on_the_whole_book_page_each_link_within_a_page_leads_to_an_id_the_page_holds() -> None:
    """print-site renames each heading's, footnote's and tab's id after its page, and each link to
    one: in the page as written, its pattern began at `<p>` or `<ol>` and ran on to the footnote's
    id on that line, which kept its name, so its link led nowhere."""
    gathered = Events(fix_internal_links(lines(PAGE), "/score-square/", True, 0)).read
    attributes = [dict(event[2]) for event in gathered if event[0].startswith("start")]
    ids = {str(held["id"]) for held in attributes if "id" in held}
    targets = {str(held["href"])[1:] for held in attributes if str(held.get("href", "")).startswith("#")}
    assert {"score-square-fnref:1", "score-square-fn:1", "score-square-the-score-square"} <= ids
    assert targets - {"positions-where"} <= ids  # the one to another page leads to that page's
