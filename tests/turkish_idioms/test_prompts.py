"""The English prompts are Appendix A's text as the paper prints it (read from the paper's copy)."""

import re

from figeval.benchmarks.turkish_idioms.prompts import DETECTION_PROMPT, ENTAILMENT_PROMPT
from tests.conftest import paper_text


def printed_prompt(first_words: str, last_line: str) -> str:
    """The prompt in Appendix A that starts with `first_words` and ends with the line `last_line`, its
    placeholders [S], [P], [H] turned into the format fields figeval fills."""
    appendix = paper_text("turkish-idioms.md").split("A Prompts", 1)[1]
    match = re.search(rf"^{re.escape(first_words)}.*?^{re.escape(last_line)}", appendix, re.MULTILINE | re.DOTALL)
    assert match, f"Appendix A has no prompt starting {first_words!r}"
    fields = {"[S]": "{sentence}", "[P]": "{premise}", "[H]": "{hypothesis}"}
    return re.sub(r"\[[SPH]\]", lambda m: fields[m.group(0)], match.group(0))


def test_detection_prompt_is_appendix_a():
    assert DETECTION_PROMPT["en"] == printed_prompt("Does the following Turkish sentence", "Answer:")


def test_entailment_prompt_is_appendix_a():
    assert ENTAILMENT_PROMPT["en"] == printed_prompt("I will provide you with a pair", "Label:")


def test_the_turkish_variant_asks_the_same_things():
    # ours, not the paper's: the same fields, the same closing labels in Turkish
    assert DETECTION_PROMPT["tr"].endswith("Cümle: {sentence}\nCevap:") and '"evet"' in DETECTION_PROMPT["tr"]
    assert (ENTAILMENT_PROMPT["tr"].endswith("Hipotez: {hypothesis}\nEtiket:")
            and '"gerektirme"' in ENTAILMENT_PROMPT["tr"])


def test_the_prompt_table_offers_exactly_the_languages_the_tasks_take():
    from typing import get_args

    from figeval.benchmarks.turkish_idioms import prompts as idioms

    assert tuple(idioms.DETECTION_PROMPT) == get_args(idioms.PromptLanguage)
