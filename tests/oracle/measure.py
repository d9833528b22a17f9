"""The oracle's own arithmetic: what a cell should hold and how it should print, written from the papers'
definitions and the issue's rules, sharing no code with figeval's metrics, tables or renderers.

A cell's value is exact (a `Fraction`) wherever the papers define it as a ratio of counts; its interval is the
Wilson score interval (Wilson 1927), written out here, where the value is a share of its n, or a bootstrap interval
(checked for shape only: its random draws are figeval's) from 30 items on, or none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

Z = 1.959964  # the 97.5% normal quantile, as papers round it
MIN_BOOTSTRAP = 30  # the rule: below 30 items no bootstrap interval (Wilson for a share, else none)


@dataclass(frozen=True)
class Expect:
    """What one cell should show."""

    value: Fraction | float
    n: int | None
    interval: str = "wilson"
    """`wilson` (a share: successes = value * n), `bootstrap` (bounds are figeval's draws: checked for shape),
    `none`."""
    samples: int | None = None
    """The run's sample count the cell's n is shown against ("(n=k)" when they differ)."""
    label: str = ""

    def bounds(self) -> tuple[float, float] | None:
        if self.interval != "wilson" or not self.n:
            return None
        successes = self.value * self.n
        assert successes == int(successes), f"a Wilson interval of a non-share {self}"
        return wilson(int(successes), self.n)


def share(k: int, n: int, samples: int | None = None) -> Expect | None:
    """k of n, as a Wilson-interval share; None for an empty denominator (figeval leaves such a rate out)."""
    return Expect(Fraction(k, n), n, "wilson", samples) if n else None


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's score interval of k successes in n: centre (k + z^2/2) / (n + z^2), half-width z / (n + z^2) *
    sqrt(k (n - k) / n + z^2 / 4)."""
    centre = (k + Z * Z / 2) / (n + Z * Z)
    half = Z / (n + Z * Z) * math.sqrt(k * (n - k) / n + Z * Z / 4)
    return max(0.0, centre - half), min(1.0, centre + half)


def decimal_of(value: Fraction | float) -> Decimal:
    with localcontext() as context:
        context.prec = 40
        if isinstance(value, Fraction):
            return Decimal(value.numerator) / Decimal(value.denominator)
        return Decimal(repr(value))


def printed(value: Fraction | float, unit: str, decimals: int) -> str:
    """The issue's one rounding rule: in the column's unit (percent x 100), to its decimals, half up."""
    if unit == "count":
        return f"{float(value):g}"
    exact = decimal_of(value) * (100 if unit == "percent" else 1)
    shown = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return f"{shown + 0:f}"


def close(a: float | None, b: float | None, tolerance: float = 1e-9) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= tolerance


def cohen_kappa(first: list[str], second: list[str]) -> Fraction | None:
    """Cohen's kappa of two raters' labels, exactly: (p_o - p_e) / (1 - p_e), p_e from each rater's own marginals;
    None when p_e is 1 (every label one category for both)."""
    n = len(first)
    observed = Fraction(sum(a == b for a, b in zip(first, second)), n)
    categories = set(first) | set(second)
    expected = sum(Fraction(first.count(c) * second.count(c), n * n) for c in categories)
    return None if expected == 1 else (observed - expected) / (1 - expected)
