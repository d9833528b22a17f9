"""PerHalluEval (Hosseini et al.): Persian hallucination detection, and the pipeline that builds it."""

from figeval.benchmarks.perhallueval.tasks import perhallueval_qa, perhallueval_summarization

TASKS = (perhallueval_qa, perhallueval_summarization)
ANNOTATED: dict = {}

__all__ = ["ANNOTATED", "TASKS", "perhallueval_qa", "perhallueval_summarization"]
