"""Persian allusions (Nobakhtian, Yaghoobzadeh, Pilehvar): cultural knowledge and allusion recognition."""

from pathlib import Path

from figeval.benchmark import AgreementTables, Benchmark, ProtocolRun
from figeval.benchmarks.persian_allusions.commands import BUILDERS
from figeval.benchmarks.persian_allusions.source import SOURCE
from figeval.benchmarks.persian_allusions.figures import FIGURES
from figeval.benchmarks.persian_allusions.scorer import ANNOTATION, KNOWLEDGE_ANNOTATION
from figeval.benchmarks.persian_allusions.tables import HEADLINES, PAPER, TABLES, THEME_COUNTS
from figeval.benchmarks.persian_allusions.tasks import allusion_knowledge, allusion_mc, allusion_open

_HERE = Path(__file__).parent

BENCHMARK = Benchmark(
    name="persian-allusions",
    title=PAPER,
    citation="Nobakhtian, Yaghoobzadeh, Pilehvar",
    tasks=(allusion_knowledge, allusion_mc, allusion_open),
    # Section 3: knowledge of the allusions, then recognition on both datasets, as multiple choice and open-ended,
    # the open answers judged with the ground truth and without it (Table 3; Section 4's analyses read them all)
    protocol=(
        ProtocolRun("allusion_knowledge", fills="Table 3, knowledge"),
        *(run for dataset, name in (("perspoems", "PersPoems"), ("generated", "LLM-Generated")) for run in (
            ProtocolRun("allusion_mc", {"dataset": dataset}, fills=f"Table 3, {name} MC"),
            ProtocolRun("allusion_open", {"dataset": dataset, "judge_mode": "gt"}, fills=f"Table 3, {name} open (GT)"),
            ProtocolRun("allusion_open", {"dataset": dataset, "judge_mode": "no_gt"},
                        fills=f"Table 3, {name} open (no GT)"),
        )),
    ),
    dataset=SOURCE,
    # People's labels of every output: Table 3's knowledge and open-ended numbers, and the judge checked against
    # them (Table 4, which prints agreement as a fraction, "EM").
    annotated={"allusion_knowledge": KNOWLEDGE_ANNOTATION, "allusion_open": ANNOTATION},
    agreement={"allusion_open": AgreementTables("Table 4", unit="fraction")},
    tables=TABLES,
    cited_tables=(THEME_COUNTS,),
    headlines=HEADLINES,
    figures=FIGURES,
    builders=BUILDERS,
    former_builder_names={"allusive-texts": "texts"},
    paper_numbers=_HERE / "paper_numbers.csv",
    paper_notes=_HERE / "paper_notes.csv",
)

__all__ = ["BENCHMARK", "allusion_knowledge", "allusion_mc", "allusion_open"]
