"""FFE-HALLU (Hosseini, Yousefzadeh, Yaghoobzadeh, EACL 2026): figurative hallucination in Persian."""

from pathlib import Path

from figeval.benchmark import AgreementTables, Benchmark, ProtocolRun
from figeval.benchmarks.ffe_hallu.commands import BUILDERS
from figeval.benchmarks.ffe_hallu.source import SOURCE
from figeval.benchmarks.ffe_hallu.figures import FIGURES
from figeval.benchmarks.ffe_hallu.scorer import GENERATION_ANNOTATION, TRANSLATION_ANNOTATION
from figeval.benchmarks.ffe_hallu.tables import HEADLINES, PAPER, TABLES
from figeval.benchmarks.ffe_hallu.tasks import ffe_detection, ffe_generation, ffe_translation

_HERE = Path(__file__).parent
# Table 6 prints one column pair per judge and task ("generation/gpt-4.1/agreement"); Tables 7-8 the annotators.
_JUDGES = ("gpt-4.1", "gemini-2.5-pro")

BENCHMARK = Benchmark(
    name="ffe-hallu",
    title=PAPER,
    citation="Hosseini, Yousefzadeh, Yaghoobzadeh, EACL 2026",
    tasks=(ffe_detection, ffe_generation, ffe_translation),
    # Section 3's three tasks: generation from the dictionary meanings and from paraphrases (Table 3), detection
    # (Table 4, Figure 1), translation (Table 5); the judges' agreement with people (Tables 6-8) needs their labels.
    protocol=(
        ProtocolRun("ffe_detection", fills="Table 4, Figure 1"),
        ProtocolRun("ffe_generation", {"meaning": "human"}, fills="Table 3, dictionary meanings"),
        ProtocolRun("ffe_generation", {"meaning": "paraphrased"},
                    needs={"paraphrases": "the sheet `figeval build ffe-hallu-paraphrases` writes, its verified "
                                          "column filled"},
                    fills="Table 3, paraphrased meanings"),
        ProtocolRun("ffe_translation",
                    needs={"pairs": "a CSV of English idioms and their Persian equivalents (upstream's is damaged)"},
                    fills="Table 5"),
    ),
    dataset=SOURCE,
    # People label every generated and translated FFE (Section 3.5); the judge is checked against them (Table 6).
    annotated={"ffe_generation": GENERATION_ANNOTATION, "ffe_translation": TRANSLATION_ANNOTATION},
    agreement={
        "ffe_generation": AgreementTables("Table 6", "Table 7", part="Task 1", judge_columns="generation",
                                          judges=_JUDGES),
        "ffe_translation": AgreementTables("Table 6", "Table 8", part="Task 3", judge_columns="translation",
                                           judges=_JUDGES),
    },
    tables=TABLES,
    headlines=HEADLINES,
    figures=FIGURES,
    builders=BUILDERS,
    former_builder_names={"paraphrases": "paraphrases", "fakes": "fakes", "fakes-final": "fakes-final"},
    paper_numbers=_HERE / "paper_numbers.csv",
    paper_notes=_HERE / "paper_notes.csv",
)

__all__ = ["BENCHMARK", "ffe_detection", "ffe_generation", "ffe_translation"]
