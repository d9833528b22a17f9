"""PerHalluEval (Hosseini et al.): Persian hallucination detection, and the pipeline that builds it."""

from pathlib import Path

from figeval.benchmark import Benchmark
from figeval.benchmarks.perhallueval.commands import BUILDERS
from figeval.benchmarks.perhallueval.figures import FIGURES
from figeval.benchmarks.perhallueval.prompts import PROMPT_VERSION
from figeval.benchmarks.perhallueval.tables import HEADLINES, PAPER, TABLES
from figeval.benchmarks.perhallueval.tasks import perhallueval_qa, perhallueval_summarization
from figeval.data.registry import get_source

_HERE = Path(__file__).parent

BENCHMARK = Benchmark(
    name="perhallueval",
    title=PAPER,
    citation="Hosseini et al.",
    summary="Persian hallucination detection, and the pipeline that builds it",
    versions=(PROMPT_VERSION,),
    tasks=(perhallueval_qa, perhallueval_summarization),
    # the tasks read the user's final file (`figeval build perhallueval-final`); the builder reads these sources
    datasets=(get_source("pquad"), get_source("pn-summary")),
    tables=TABLES,
    headlines=HEADLINES,
    figures=FIGURES,
    builders=BUILDERS,
    paper_numbers=_HERE / "paper_numbers.csv",
    paper_notes=_HERE / "paper_notes.csv",
)

__all__ = ["BENCHMARK", "perhallueval_qa", "perhallueval_summarization"]
