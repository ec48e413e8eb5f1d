"""The compass: a tally of hostile inputs tried, by kind, printed at the end of `make test`."""

from __future__ import annotations

from collections import Counter

TRIED: Counter = Counter()
GOT_THROUGH: Counter = Counter()


def tried(kind: str, n: int = 1) -> None:
    """Count ``n`` hostile inputs of ``kind`` as tried (a test that fails records them as through)."""
    TRIED[kind] += n


def through(kind: str, n: int = 1) -> None:
    """Count hostile inputs that got through (only a failing test calls this)."""
    GOT_THROUGH[kind] += n
