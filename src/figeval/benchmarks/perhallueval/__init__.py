"""PerHalluEval (Hosseini et al.): Persian hallucination detection, and the pipeline that builds it."""

from figeval.benchmarks.perhallueval.tasks import perhallueval_qa, perhallueval_summarization
from figeval.benchmarks.perhallueval.tables import HEADLINES, TABLES

TASKS = (perhallueval_qa, perhallueval_summarization)
ANNOTATED: dict = {}

__all__ = ["ANNOTATED", "HEADLINES", "TABLES", "TASKS", "perhallueval_qa", "perhallueval_summarization"]
