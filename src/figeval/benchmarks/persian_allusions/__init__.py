"""Persian allusions (Nobakhtian, Yaghoobzadeh, Pilehvar): cultural knowledge and allusion recognition."""

from figeval.benchmarks.persian_allusions.scorer import ANNOTATION
from figeval.benchmarks.persian_allusions.tasks import allusion_knowledge, allusion_mc, allusion_open
from figeval.benchmarks.persian_allusions.tables import HEADLINES, TABLES

TASKS = (allusion_knowledge, allusion_mc, allusion_open)
# The open-ended judge checked against people (Table 4).
ANNOTATED = {allusion_open: ANNOTATION}

__all__ = ["ANNOTATED", "HEADLINES", "TABLES", "TASKS", "allusion_knowledge", "allusion_mc", "allusion_open"]
