"""PerHalluEval's Figures 3-5 and 8, drawn from their tables (tables.py) by `figeval report --figures`."""

from figeval.benchmark import FigureSpec

# Figures 3-4's captions: "Comparison of evaluated LLMs' performances on the QA [summarization] task. Error bars
# show 95% confidence intervals across evaluation samples."
_RECALLS = tuple(
    FigureSpec(f"perhallueval/figure-{number}", f"perhallueval-figure-{number}",
               f"PerHalluEval Figure {number}: comparison of the models' performances on the {task} task; error bars: "
               "95% confidence intervals", "%", columns=("factual_recall", "hallucinated_recall", "hamming_score"),
               errors=True)
    for number, task in ((3, "QA"), (4, "summarization"))
)

FIGURES = (
    *_RECALLS,
    # Figure 5's caption: "Comparison of LLM performance on Persian-specific vs. non-Persian content in the QA task
    # (Hamming Score)."
    FigureSpec("perhallueval/figure-5", "perhallueval-figure-5", "PerHalluEval Figure 5: QA Hamming score, "
               "Persian-specific vs generic content; error bars: 95% confidence intervals", "Hamming score",
               columns=("persian_specific", "generic"), errors=True),
    # Figure 8's caption: "Precision-Recall maps with iso-F1 curves. Each point is a model, bubble size reflects its
    # F1 score, and iso-F1 curves (gray) provide guidance on the precision-recall trade-off." 'Y' (factual) is the
    # positive class.
    FigureSpec("perhallueval/figure-8", "perhallueval-figure-8", "PerHalluEval Figure 8: precision-recall map with "
               "iso-F1 curves (gray); each point is a model on a task, its size its F1", "precision",
               columns=("qa", "summarization"), groups=("QA", "summarization (TS)"), kind="precision_recall",
               x_axis="recall (factual)"),
)
