"""Persian allusions (Nobakhtian, Yaghoobzadeh, Pilehvar): cultural knowledge and allusion recognition."""

from figeval.benchmarks.persian_allusions.scorer import ANNOTATION, KNOWLEDGE_ANNOTATION
from figeval.benchmarks.persian_allusions.tasks import allusion_knowledge, allusion_mc, allusion_open
from figeval.benchmarks.persian_allusions.tables import HEADLINES, TABLES

TASKS = (allusion_knowledge, allusion_mc, allusion_open)
# People's labels of every output: Table 3's knowledge and open-ended numbers, and the judge checked against them
# (Table 4).
ANNOTATED = {allusion_knowledge: KNOWLEDGE_ANNOTATION, allusion_open: ANNOTATION}

__all__ = ["ANNOTATED", "HEADLINES", "TABLES", "TASKS", "allusion_knowledge", "allusion_mc", "allusion_open"]
