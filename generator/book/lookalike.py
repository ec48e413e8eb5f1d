"""Text as a reader sees it: two titles a reader cannot tell apart are one title.

``Trash`` and ``Trash `` (a space after it), ``Ｔｒａｓｈ`` (full-width), ``Tr\u200bash`` (a zero-width space in it)
and ``Тrash`` (its T Cyrillic) print alike; the index would list two games under what looks like one name. A
title's key folds what a reader does not see: Unicode compatibility forms (NFKC: full-width, ligatures, mathematical
letters, no-break spaces), invisible format characters, runs of spaces and the spaces at either end, case, and the
letters of other scripts drawn like Latin ones (the Latin look-alikes of Unicode's confusables list, for the
scripts a title may borrow from: Cyrillic, Greek, Armenian, Cherokee and Latin's own variants).
"""

from __future__ import annotations

import re
import unicodedata

# Letters drawn like a Latin letter, by the Latin letter (lower case: folded after case is).
_LOOK_ALIKES = {
    "a": "аɑαа⍺",
    "b": "Ꮟƅь",
    "c": "сϲᴄⅽ",
    "d": "ԁⅾ",
    "e": "еҽ℮ꬲ",
    "g": "ɡց",
    "h": "һհᏂ",
    "i": "іıɩιӏ¡ꙇ",
    "j": "јϳ",
    "k": "κк",
    "l": "ⅼӏ",
    "m": "ⅿм",
    "n": "ոп",
    "o": "оοօσ०੦૦ం೦ംဝ၀ჿᴏ",
    "p": "рρ⍴",
    "q": "ԛզ",
    "r": "гᴦ",
    "s": "ѕꜱ",
    "t": "т",
    "u": "ʋυսᴜ",
    "v": "νѵᴠⅴ",
    "w": "ԝɯѡ",
    "x": "хχⅹ",
    "y": "уγүʏ",
    "z": "ᴢ",
}
# Capitals whose small letter does not look like the Latin one (Cyrillic В and в, Greek Η and η): folded before case.
_CAPITALS = {
    "A": "АΑᎪ", "B": "ВΒᏴ", "C": "СϹᏟ", "E": "ЕΕᎬ", "H": "НΗᎻ", "I": "ІΙӀ", "J": "ЈᎫ", "K": "КΚᏦ", "M": "МΜᎷ",
    "N": "Ν", "O": "ОΟՕ", "P": "РΡᏢ", "S": "ЅᏚ", "T": "ТΤᎢ", "X": "ХΧ", "Y": "ΥҮ", "Z": "ΖᏃ",
}
_FOLD_CAPITALS = str.maketrans({c: latin for latin, chars in _CAPITALS.items() for c in chars})
_FOLD = str.maketrans({c: latin for latin, chars in _LOOK_ALIKES.items() for c in chars})
_SPACES = re.compile(r"\s+")


def reader_key(text: str) -> str:
    """What ``text`` looks like to a reader, as a key: two texts with one key cannot be told apart on the page."""
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        text = "".join(c for c in text if unicodedata.category(c) != "Cf").translate(_FOLD_CAPITALS)
    text = text.casefold()
    if not text.isascii():
        text = text.translate(_FOLD)
    return _SPACES.sub(" ", text).strip()


def script(char: str) -> str:
    """The script a letter is written in, as Unicode names it: 'Cyrillic', 'Greek', 'Armenian', 'Latin'..."""
    name = unicodedata.name(char, "")
    for word in name.split():
        if word not in ("FULLWIDTH", "MATHEMATICAL", "SMALL", "CAPITAL", "MODIFIER", "BOLD", "ITALIC", "SCRIPT"):
            return word.title()
    return "unnamed"


def foreign_letters(text: str) -> str:
    """Each letter of ``text`` that is not a plain Latin one, by its script and name ("'Т' is Cyrillic (CYRILLIC
    CAPITAL LETTER TE), drawn like T"), joined by '; ' ('' when there is none): what a reader cannot see."""
    out = []
    for char in dict.fromkeys(text):
        if char.isascii() or not (char.isalpha() or unicodedata.category(char) == "Cf"):
            continue
        if unicodedata.category(char) == "Cf":
            out.append(f"an invisible U+{ord(char):04X} ({unicodedata.name(char, 'format character')})")
            continue
        latin = reader_key(char)
        like = f", drawn like {latin.upper() if char.isupper() else latin}" if latin.isascii() and latin.strip() else ""
        out.append(f"'{char}' is {script(char)} ({unicodedata.name(char, f'U+{ord(char):04X}')}){like}")
    return "; ".join(out)
