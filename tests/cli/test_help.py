"""`figeval run --help`: each `inspect eval` option figeval gives a default or meaning of its own says figeval's,
and the defaults it says are those a run applies."""

import re

from figeval.models.local_server import Probe, local_server_settings
from figeval.running.launch import command_defaults
from tests.command import figeval


def option_helps(help_text: str) -> dict[str, str]:
    """Each option's help as one string without whitespace (click wraps it at spaces and at hyphens), by the
    option's first name."""
    helps: dict[str, str] = {}
    name = None
    for line in help_text.split("\nOptions:\n", 1)[1].splitlines():
        if (option := re.match(r"  (--?[\w-]+)", line)) is not None:
            name = option.group(1)
            helps[name] = "".join(line[len(option.group(0)):].split())
        elif name is not None:
            helps[name] += "".join(line.split())
    return helps


def says(help_text: str, expected: str) -> bool:
    return "".join(expected.split()) in help_text


def test_run_help_states_figevals_defaults_not_inspects():
    shown = figeval("run", "--help")
    assert shown.returncode == 0, shown.stderr
    helps = option_helps(shown.stdout)
    assert says(helps["--model"], "(figeval's default: gguf/gemma-3-270m, the embedded base model)")
    assert says(helps["--retry-on-error"], "(figeval's default: 3; Inspect's: none). --retry-on-error alone: once.")
    assert says(helps["--cache"], "(figeval's default: cached, never expiring, recorded as 100Y; --no-cache: off; "
                                  "--cache alone: 7D, Inspect's")
    assert says(helps["--max-retries"], "(figeval's default: 10 for an API, 5 for a server on this machine or "
                                        "network; Inspect's: unlimited)")
    assert says(helps["--attempt-timeout"], "(figeval's default: 120 for an API, none for a server on this machine "
                                            "or network")
    assert says(helps["--max-connections"], "8 for vLLM and SGLang, 1 for a server that does not say")
    assert says(helps["--no-log-realtime"], "figeval's default (--log-realtime streams them)")
    assert says(helps["--limit"], "N samples that keep the task's design") and says(helps["--limit"],
                                                                                    "(Inspect's: the first N)")
    # Inspect's own words for these options, which state Inspect's defaults, are gone
    for said in ("by default, no retries occur", "defaults to unlimited", "cache with 7 day expiration",
                 "Limit samples to evaluate", "Model used to evaluate tasks", "(defaults to 10)"):
        assert not says("".join(shown.stdout.split()), said), said
    # an option figeval leaves at Inspect's default keeps Inspect's help
    assert says(helps["--timeout"], "Model API request timeout in seconds")


def test_the_defaults_the_help_states_are_the_ones_a_run_applies():
    # an API model: figeval's defaults as `inspect eval`'s parameters (--no-log-realtime on is streaming off)
    assert command_defaults("openai/gpt-4.1", cache=True) == {
        "cache": "100Y", "no_log_realtime": True, "retry_on_error": 3, "attempt_timeout": 120, "max_retries": 10}
    # a server on this machine that does not say how many requests it runs, and one that batches
    quiet = local_server_settings("openai-api/local/m", base_url="http://127.0.0.1:8080/v1", environ={},
                                  probe=lambda url, key: Probe(reachable=True))
    batching = local_server_settings("openai-api/local/m", base_url="http://127.0.0.1:8080/v1", environ={},
                                     probe=lambda url, key: Probe(reachable=True, owner="vllm"))
    assert quiet is not None and batching is not None
    assert quiet.options == {"max_connections": 1, "attempt_timeout": None, "max_retries": 5}
    assert batching.options["max_connections"] == 8
