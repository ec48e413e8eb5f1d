"""The book's colour (book.yaml's ``accent``) and its shades: how each is worked out, and how well white text reads
on it (WCAG 2's contrast ratio, from the relative luminance of sRGB colours).

The site prints white on the colour (its header) and on its dark shade (the source's box), and the colour and its link
shade on the white page; the cover prints its cream on the colour. The check ``book.accent_contrast`` uses this; the
site's stylesheet is coloured from ``SHADES`` (``render/site/offline.py``).
"""

from __future__ import annotations

# How each of the site's shades is worked out from the book's colour when book.yaml does not give it: mixed with white
# or black by this much (the colour is dark enough for white text, so it reads as a link on white as it is).
SHADES = {"light": ("#ffffff", 0.15), "dark": ("#000000", 0.25), "link": ("#ffffff", 0.0),
          "link_on_dark": ("#ffffff", 0.6)}
# The shades white text is printed on, or that are printed as text on the white page: the same pair of colours.
# (light is no text's background; link_on_dark is a light tint on the dark page, read against that, not white.)
ON_WHITE = ("dark", "link")
WHITE = "#ffffff"
AA_NORMAL = 4.5  # WCAG 2 AA: the least contrast for text under 18 pt (14 pt bold)


def mix(colour: str, other: str, share: float) -> str:
    """'#rrggbb' with ``share`` of ``other`` mixed in (sRGB)."""
    a, b = (tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in (colour, other))
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))


def shade(accent: str, name: str, given: str | None = None) -> str:
    """The shade ``name`` of ``accent``: book.yaml's, if it gives one, else worked out (``SHADES``)."""
    return (given or mix(accent, *SHADES[name])).lower()


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of '#rrggbb': 0 for black, 1 for white."""
    def linear(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black and white)."""
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def darkened(colour: str, against: str = WHITE, least: float = AA_NORMAL) -> str:
    """``colour`` with the least share of black mixed in (its hue kept) that gives ``least`` contrast with ``against``
    (a light colour): ``colour`` itself if it does already."""
    if contrast(colour, against) >= least:
        return colour.lower()
    share = next(s / 100 for s in range(1, 101) if contrast(mix(colour, "#000000", s / 100), against) >= least)
    return mix(colour, "#000000", share)
