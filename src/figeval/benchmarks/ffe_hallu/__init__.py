"""FFE-HALLU (Hosseini, Yousefzadeh, Yaghoobzadeh, EACL 2026): figurative hallucination in Persian."""

from figeval.benchmarks.ffe_hallu.scorer import GENERATION_ANNOTATION, TRANSLATION_ANNOTATION
from figeval.benchmarks.ffe_hallu.tasks import ffe_detection, ffe_generation, ffe_translation
from figeval.benchmarks.ffe_hallu.tables import HEADLINES, TABLES

TASKS = (ffe_detection, ffe_generation, ffe_translation)
# Tasks whose answers people label, and how (`figeval annotate`, `figeval judge agreement`).
ANNOTATED = {ffe_generation: GENERATION_ANNOTATION, ffe_translation: TRANSLATION_ANNOTATION}

__all__ = ["ANNOTATED", "HEADLINES", "TABLES", "TASKS", "ffe_detection", "ffe_generation", "ffe_translation"]
