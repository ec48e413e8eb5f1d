"""Prose Markdown, one set of extensions for site and print: nesting as the sources indent it, diagrams kept."""

from __future__ import annotations

import re

import markdown
import pytest

from generator.render.views.markup import PROSE_EXTENSIONS, inline_markdown, prose_html

# (Markdown, the list structure it must give: each item's text, nested items indented two spaces a level)
NESTING = {
    "two-space sub-items (the book's Hearts)": (
        "- pass three cards\n  - Left\n  - Right\n- If more than four players\n",
        "pass three cards\n  Left\n  Right\nIf more than four players"),
    "four-space sub-items (Python-Markdown's own)": (
        "- a\n    - b\n        - c\n- d\n",
        "a\n  b\n    c\nd"),
    "two levels at two spaces": (
        "- a\n  - b\n    - c\n  - d\n- e\n",
        "a\n  b\n    c\n  d\ne"),
    "numbered parent: its text starts at column 3": (
        "1. one\n   - under one\n2. two\n",
        "one\n  under one\ntwo"),
    "a top-level list indented two spaces stays top-level (Standard Gin Rummy)": (
        "Requirements\n\n  1. strictly two-handed\n  1. two at a time\n\nAfter\n",
        "strictly two-handed\ntwo at a time"),
    "one space is not enough to nest under '- '": (
        "- a\n - b\n",
        "a\nb"),
    "a continuation paragraph after a blank line stays in its item": (
        "- a\n  - b\n\n    more of b\n\n- c\n",
        "a\n  b more of b\nc"),
    "text after a blank line at the margin ends the list": (
        "- a\n  - b\n\nnot an item\n\n- c\n",
        "a\n  b\nc"),
}


def _outline(html: str) -> str:
    """The nesting of a list as indented lines of item text (only what list structure says)."""
    lines, depth, buf = [], 0, []

    def flush() -> None:
        text = " ".join(re.sub(r"<[^>]+>", " ", "".join(buf)).split())
        if text:
            lines.append("  " * (depth - 1) + text)
        buf.clear()

    for token in re.split(r"(</?(?:ul|ol|li)\b[^>]*>)", html):
        if re.fullmatch(r"<(ul|ol)\b[^>]*>", token):
            flush()
            depth += 1
        elif re.fullmatch(r"</(ul|ol)>", token):
            flush()
            depth -= 1
        elif re.fullmatch(r"</?li\b[^>]*>", token):
            flush()
        elif depth:
            buf.append(token)
    return "\n".join(lines)


@pytest.mark.parametrize("case", list(NESTING), ids=list(NESTING))
def test_lists_nest_as_indented_in_print(case):
    source, outline = NESTING[case]
    assert _outline(str(prose_html(source))) == outline


@pytest.mark.parametrize("case", list(NESTING), ids=list(NESTING))
def test_the_site_markdown_nests_alike(case):
    """The site's Markdown is MkDocs' with the same prose extensions (the plugin adds them)."""
    source, outline = NESTING[case]
    html = markdown.markdown(source, extensions=["toc", *PROSE_EXTENSIONS])
    assert _outline(html) == outline


def test_an_indented_code_block_outside_a_list_stays_code():
    html = str(prose_html("Text\n\n    - not an item\n    two\n"))
    assert "<pre><code>- not an item\ntwo\n</code></pre>" in html and "<li>" not in html


def test_horizontal_rule_is_not_an_item():
    assert "<hr" in str(prose_html("- a\n\n- - -\n\ntext\n"))


def test_fenced_diagram_keeps_its_lines_and_spaces():
    diagram = "---    ---\n| 1 |  | 2 |\n---    ---\n\n---    ---\n| 3 |  | 4 |\n---    ---\n"
    html = str(prose_html(f"Arrange cards like this:\n\n```\n{diagram}```\n\nAfter\n"))
    assert f"<pre><code>{diagram}</code></pre>" in html


def test_fenced_block_is_not_reindented_or_made_a_list():
    html = str(prose_html("- a\n\n```\n  - inside a fence\n```\n"))
    assert "<pre><code>  - inside a fence\n</code></pre>" in html


@pytest.mark.parametrize("text", ["```\n<script>alert(1)</script>\n```\n", "- a\n  - <img src=x onerror=alert(1)>\n"])
def test_raw_html_in_fences_and_sub_items_stays_text(text):
    html = str(prose_html(text))
    assert "<script" not in html and "<img" not in html and "lt;" in html


@pytest.mark.parametrize(("text", "html"), [
    ("Trump declared by owner of **King-Spades**", "Trump declared by owner of <strong>King-Spades</strong>"),
    ("2 **extra** for each trick", "2 <strong>extra</strong> for each trick"),
    ("**<b>x</b>**", "<strong>&lt;b&gt;x&lt;/b&gt;</strong>"),
])
def test_inline_markdown_bold(text, html):
    assert str(inline_markdown(text)) == html


# (file, text in it, the same with **bold**, the phrase that must print bold): every place YAML text is shown
BOLD_IN_DATA = {
    "card value label and value (table and glance)": (
        "golf.yaml", '{label: Kings, cards: K, points: 0, value: "{points:score}"}',
        '{label: "**Kings**", cards: K, points: 0, value: "**{points:score}**"}', ["Kings", "Free"]),
    "a round's rule": ("desert-rummy.yaml", '{name: "1", meld: 2 sets of 3}',
                       '{name: "1", meld: 2 sets of 3, text: "**First** round"}', ["First"]),
    "a round's hands": ("court-whist.yaml", "- Clubs Trump\n", '- "**Clubs** Trump"\n', ["Clubs"]),
    "score-sheet field": ("court-whist.yaml", "fields: [Name]", 'fields: ["**Name**"]', ["Name"]),
    "score-sheet column": ("gin-rummy-tournament.yaml", "columns: [Game 1,", 'columns: ["**Game 1**",', ["Game 1"]),
}


@pytest.mark.parametrize("case", list(BOLD_IN_DATA), ids=list(BOLD_IN_DATA))
def test_bold_in_data_prints_bold_in_every_block(case, tmp_path):
    """No data block prints YAML's ** as asterisks: glance, score tables, rounds, score-sheet fields and columns."""
    from generator.book.library import load_library
    from generator.book.prose import format_value
    from generator.render.views import describe
    from generator.render.views.markup import environment
    from generator.render.views.pages import game_page
    from generator.render.views.sheets import template_globals
    from tests.conftest import copy_project

    name, old, new, phrases = BOLD_IN_DATA[case]
    project = copy_project(tmp_path)
    path = project / "rules_data" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    lib = load_library(project)
    view = game_page(lib, lib.games[name.removesuffix(".yaml")]).main
    blocks = environment(fmt=format_value, describe=describe, **template_globals()).get_template("blocks.html.j2").module
    html = str(blocks.glance(view)) + "".join(str(blocks.block(view, p)) for _, p in view.segments if _ == "block")
    html += "".join(str(blocks.block(view, p)) for p in view.unplaced())
    html += str(blocks.score_sheet(view)) if view.body.score_sheet else ""
    assert "**" not in html
    for phrase in phrases:
        assert f"<strong>{phrase}</strong>" in html, phrase


# --- compiled templates kept between processes (issue 14: the site compiled every template anew) ---

def _env(cache, source: str):
    import jinja2

    from generator.render.views.markup import _OPTIONS

    return jinja2.Environment(loader=jinja2.DictLoader({"t.html": source}), bytecode_cache=cache, **_OPTIONS)


def _no_compiling(env) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("compiled again")

    env.compile = refuse


def test_a_compiled_template_is_loaded_by_the_next_process(tmp_path):
    from generator.render.views.markup import _CompiledTemplates

    source = "{% for x in xs %}<b>{{ x }}</b>{% endfor %}"
    first = _env(_CompiledTemplates("options", tmp_path), source)
    assert first.get_template("t.html").render(xs=["<", 2]) == "<b>&lt;</b><b>2</b>"
    assert len(list(tmp_path.iterdir())) == 1
    later = _env(_CompiledTemplates("options", tmp_path), source)  # a new process: an empty memory
    _no_compiling(later)
    assert later.get_template("t.html").render(xs=["<", 2]) == "<b>&lt;</b><b>2</b>"


def test_other_options_or_an_edited_template_compile_anew(tmp_path):
    from generator.render.views.markup import _CompiledTemplates

    _env(_CompiledTemplates("options", tmp_path), "{{ x }}").get_template("t.html").render(x=1)
    other = _env(_CompiledTemplates("other options", tmp_path), "{{ x }}")
    compiled = []
    real = other.compile
    other.compile = lambda *a, **k: compiled.append(1) or real(*a, **k)
    other.get_template("t.html").render(x=1)
    assert compiled == [1] and len(list(tmp_path.iterdir())) == 2  # code made under other options is not shared
    edited = _env(_CompiledTemplates("options", tmp_path), "[{{ x }}]")
    assert edited.get_template("t.html").render(x=1) == "[1]"


@pytest.mark.parametrize("damage", [lambda b: b"", lambda b: b[: len(b) // 2], lambda b: b[:40] + b"garbage" * 9])
def test_a_damaged_or_unwritable_cache_costs_only_time(tmp_path, damage):
    from generator.render.views.markup import _CompiledTemplates

    _env(_CompiledTemplates("options", tmp_path), "{{ x }}!").get_template("t.html").render(x=1)
    for f in tmp_path.iterdir():
        f.write_bytes(damage(f.read_bytes()))  # empty, cut short, the right header and then garbage
    assert _env(_CompiledTemplates("options", tmp_path), "{{ x }}!").get_template("t.html").render(x=2) == "2!"
    missing = tmp_path / "not-a-folder.txt"
    missing.write_text("a file where the folder should be")
    assert _env(_CompiledTemplates("options", missing), "{{ x }}?").get_template("t.html").render(x=3) == "3?"


def test_an_e_mail_address_in_prose_is_a_link_with_its_words_unchanged():
    """Print's prose links each e-mail address (mailto:), so that a reader of the PDF can follow it; an address in
    code, preformatted text or a link stays as it is, and the text reads the same."""
    html = str(prose_html("send them to brent.metzker@gmail.com. Or `a@b.org`, or [mail](mailto:c@d.org) c@d.org"))
    assert '<a href="mailto:brent.metzker@gmail.com" rel="noopener noreferrer">brent.metzker@gmail.com</a>.' in html
    assert "<code>a@b.org</code>" in html and html.count("mailto:c@d.org") == 2
    assert re.sub(r"<[^>]+>", "", html) == "send them to brent.metzker@gmail.com. Or a@b.org, or mail c@d.org"
    assert "mailto" not in str(prose_html("```\nx@y.com\n```\n\nno address: a@b, @name, x@y.\n"))
    titled = str(prose_html('[x](https://a.org "mail> me@x.com")'))  # an address in an attribute stays there
    assert 'title="mail&gt; me@x.com"' in titled and "mailto" not in titled
