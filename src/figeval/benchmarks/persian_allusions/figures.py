"""The Persian allusions paper's Section 4 analyses as figures: accuracy per theme and the MC-vs-open gap."""

from figeval.benchmark import FigureSpec
from figeval.benchmarks.persian_allusions.dataset import THEMES

# Table 1 prints each theme in Persian beside its English name
PERSIAN_THEME = {"religious": "مذهبی", "quranic": "قرآنی", "mythical-historical": "اساطیری-تاریخی",
                 "romantic": "عاشقانه", "mystical": "عرفانی", "other": "سایر"}

FIGURES = (
    # two lines, the English name first: a line mixing scripts is laid out right to left, its parts reversed
    FigureSpec("persian-allusions/themes", "persian-allusions-themes",
               "Persian allusions: accuracy per theme (Section 4; no bar: no text with the theme)", "accuracy (%)",
               columns=THEMES, groups=tuple(f"{theme}\n{PERSIAN_THEME[theme]}" for theme in THEMES)),
    FigureSpec("persian-allusions/gap", "persian-allusions-gap",
               "Persian allusions: MC vs open-ended accuracy (Section 4)", "accuracy (%)", columns=("mc", "open")),
)
