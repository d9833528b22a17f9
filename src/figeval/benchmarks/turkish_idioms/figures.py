"""The Turkish idioms paper's label preference (Section 4) as a figure, from Table 2's label-share columns."""

from figeval.benchmark import FigureSpec

FIGURES = (
    FigureSpec("turkish-idioms/table-2", "turkish-idioms-label-preference",
               "Turkish idioms: label preference (share of parsed answers)", "share",
               columns=("yes_rate", "entailment_rate")),
)
