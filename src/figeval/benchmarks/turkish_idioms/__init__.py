"""An Idiom Benchmark for Turkish (Cavusoglu and Coltekin): idiom detection and entailment."""

from figeval.benchmarks.turkish_idioms.scorer import annotation_spec
from figeval.benchmarks.turkish_idioms.tasks import tr_idiom_detection, tr_idiom_entailment
from figeval.benchmarks.turkish_idioms.tables import HEADLINES, TABLES

TASKS = (tr_idiom_detection, tr_idiom_entailment)
# Answers the parser could not read, labelled by hand (the paper's protocol, Section 4).
ANNOTATED = {tr_idiom_detection: annotation_spec("detection"), tr_idiom_entailment: annotation_spec("entailment")}

__all__ = ["ANNOTATED", "HEADLINES", "TABLES", "TASKS", "tr_idiom_detection", "tr_idiom_entailment"]
