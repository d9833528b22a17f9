"""Reading the next token's candidates from a model output."""

import pytest
from inspect_ai.model import ModelOutput

from figeval.scoring.readers import next_token_top_logprobs
from figeval.errors import FigevalError


def test_an_output_without_logprobs_is_a_clear_error_not_an_unparsed_answer():
    with pytest.raises(FigevalError, match=r"model openai/gpt-x returned no logprobs; .* or use answer_mode=generate"):
        next_token_top_logprobs(ModelOutput.from_content("openai/gpt-x", "Yes"))
