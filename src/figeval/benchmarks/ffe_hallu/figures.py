"""FFE-HALLU's Figure 1, drawn from its table (tables.py's FIGURE_1) by `figeval report --figures`."""

from figeval.benchmark import FigureSpec
from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, PAPER_CATEGORY_NAMES, category_slug

# Figure 1's caption: "Fake FFE Detection accuracy by model and category for two prompt settings": one figure per
# prompt, each category a group (the prompt is named once, in the caption).
FIGURES = tuple(
    FigureSpec("ffe-hallu/figure-1", f"ffe-hallu-figure-1-{framing.replace('_', '-')}",
               f"FFE-HALLU Figure 1: fake FFE detection accuracy by model and category, prompt '{question}'",
               "accuracy (%)", columns=tuple(f"{framing}/{category_slug(category)}" for category in FAKE_CATEGORIES),
               groups=tuple(PAPER_CATEGORY_NAMES[category] for category in FAKE_CATEGORIES))
    for framing, question in (("fake_q", "Is this FFE fake?"), ("real_q", "Is this FFE real?"))
)
