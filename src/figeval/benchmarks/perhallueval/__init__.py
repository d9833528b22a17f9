"""PerHalluEval (Hosseini et al.): Persian hallucination detection, and the pipeline that builds it."""

from pathlib import Path

from figeval.benchmark import Benchmark, Decoding, ProtocolRun
from figeval.benchmarks.perhallueval.commands import BUILDERS
from figeval.benchmarks.perhallueval.figures import FIGURES
from figeval.benchmarks.perhallueval.sources import PN_SUMMARY, PQUAD
from figeval.benchmarks.perhallueval.tables import HEADLINES, PAPER, TABLES
from figeval.benchmarks.perhallueval.tasks import perhallueval_qa, perhallueval_summarization

_HERE = Path(__file__).parent

BENCHMARK = Benchmark(
    name="perhallueval",
    title=PAPER,
    citation="Hosseini et al.",
    tasks=(perhallueval_qa, perhallueval_summarization),
    # Section 3.5: both tasks on the final data (Table 2; Tables 1 and 4 and Figures 3-5 and 8 read the same runs)
    protocol=tuple(
        ProtocolRun(f"perhallueval_{kind}", needs={"data": "the final file `figeval build perhallueval-candidates "
                                                           f"--task {kind}` writes, or a published PerHalluEval file"},
                    fills=f"Table 2, {name}")
        for kind, name in (("qa", "QA"), ("summarization", "summarization"))),
    # Appendix A: "temperature = 0.0, top-p = 1.0, and max_tokens = 512" for every model, "unless precluded by
    # provider defaults"
    decoding=Decoding({"temperature": 0.0, "top_p": 1.0, "max_tokens": 512}, "Appendix A, Table 3"),
    # its tasks read the sets its builder makes (user files); the builder reads these
    build_datasets=(PQUAD, PN_SUMMARY),
    tables=TABLES,
    headlines=HEADLINES,
    figures=FIGURES,
    builders=BUILDERS,
    former_builder_names={"perhallueval": "candidates"},
    paper_numbers=_HERE / "paper_numbers.csv",
    paper_notes=_HERE / "paper_notes.csv",
)

__all__ = ["BENCHMARK", "perhallueval_qa", "perhallueval_summarization"]
