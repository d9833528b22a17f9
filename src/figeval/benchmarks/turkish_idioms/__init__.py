"""An Idiom Benchmark for Turkish (Cavusoglu and Coltekin): idiom detection and entailment."""

from pathlib import Path

from figeval.benchmark import Benchmark, ProtocolRun
from figeval.benchmarks.turkish_idioms.dataset import FREQUENCY_BANDS
from figeval.benchmarks.turkish_idioms.source import SOURCE
from figeval.benchmarks.turkish_idioms.figures import FIGURES
from figeval.benchmarks.turkish_idioms.scorer import annotation_spec
from figeval.benchmarks.turkish_idioms.tables import HEADLINES, PAPER, TABLES
from figeval.benchmarks.turkish_idioms.tasks import tr_idiom_detection, tr_idiom_entailment

_HERE = Path(__file__).parent

BENCHMARK = Benchmark(
    name="turkish-idioms",
    title=PAPER,
    citation="Cavusoglu and Coltekin",
    tasks=(tr_idiom_detection, tr_idiom_entailment),
    # Section 4: both tasks with the English prompts of Appendix A (Table 2)
    protocol=(ProtocolRun("tr_idiom_detection", fills="Table 2 and the frequency finding, detection"),
              ProtocolRun("tr_idiom_entailment", fills="Table 2 and the frequency finding, entailment")),
    dataset=SOURCE,
    # Answers the parser could not read, labelled by hand (the paper's protocol, Section 4).
    annotated={"tr_idiom_detection": annotation_spec("detection"),
               "tr_idiom_entailment": annotation_spec("entailment")},
    tables=TABLES,
    headlines=HEADLINES,
    figures=FIGURES,
    choices={"frequency_bands": tuple(FREQUENCY_BANDS)},
    paper_numbers=_HERE / "paper_numbers.csv",
    paper_notes=_HERE / "paper_notes.csv",
)

__all__ = ["BENCHMARK", "tr_idiom_detection", "tr_idiom_entailment"]
