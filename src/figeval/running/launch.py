"""A run's launch: figeval's eval settings for a model (its defaults where the user gives none), a task built and
checked as its run needs it before any model is asked, and Inspect's options for the run."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from figeval.answering import NO_EXPIRY
from figeval.benchmark import Benchmark
from figeval.errors import FigevalError
from figeval.models.local_server import BATCHING_SERVER_CONNECTIONS, LOCAL_MAX_RETRIES, UNKNOWN_SERVER_CONNECTIONS
from figeval.providers import provider_of

# A sample whose model call failed (a dropped connection, an empty or malformed response the provider could not
# parse) is asked again this many times before it counts as an error; Inspect's default, 0, ends a long API run
# at the first such response.
RETRY_ON_ERROR = 3
# Seconds one request may take before it is abandoned and retried (Inspect waits 600 s by default); API models
# only: an in-process model has no connection to hang.
REQUEST_TIMEOUT_S = 120
# Retries of one request (with Inspect's backoff) before its sample fails; Inspect's default is unlimited, so a
# server that has stopped would be retried for ever. API models only.
MAX_RETRIES = 10
_LOCAL = "a server on this machine or network"
# The help `figeval run --help` shows for the `inspect eval` options figeval gives a default of its own, written
# from the values above and the local server's, so the help cannot state another default than the one a run
# applies (Inspect's own help states Inspect's).
DEFAULTS_HELP = {
    "retry_on_error": f"Ask a sample whose model call failed again, N times, before it counts as an error "
                      f"(figeval's default: {RETRY_ON_ERROR}; Inspect's: none). --retry-on-error alone: once.",
    "cache": f"How long a model response is kept in Inspect's cache and reused: a duration (1h, 3d, 6M; s, m, h, "
             f"D, W, M or Y) or a YAML or JSON file of a CachePolicy (figeval's default: cached, never expiring, "
             f"recorded as {NO_EXPIRY}; --no-cache: off; --cache alone: 7D, Inspect's; replay/ is never cached).",
    "max_connections": f"Requests sent at once (figeval's default for {_LOCAL}: as many as it runs, read from "
                       f"llama-server's /props; {BATCHING_SERVER_CONNECTIONS} for vLLM and SGLang, "
                       f"{UNKNOWN_SERVER_CONNECTIONS} for a server that does not say; other models: Inspect's "
                       "adaptive count, see --adaptive-connections).",
    "max_retries": f"Retries of one model request before its sample fails (figeval's default: {MAX_RETRIES} for an "
                   f"API, {LOCAL_MAX_RETRIES} for {_LOCAL}; Inspect's: unlimited).",
    "attempt_timeout": f"Seconds before one attempt at a model request is abandoned and retried (figeval's "
                       f"default: {REQUEST_TIMEOUT_S} for an API, none for {_LOCAL}, where a request waits its turn "
                       "in a queue; Inspect's: none).",
    "no_log_realtime": "Do not stream each sample's events to `inspect view` while it runs: figeval's default "
                       "(--log-realtime streams them).",
}


def eval_options(model: str, cache: bool = True) -> dict[str, Any]:
    """The Inspect eval settings figeval adds for a model (also used by perf/ to measure the same thing)."""
    from figeval.answering import response_cache

    options: dict[str, Any] = {
        "cache": response_cache(model, enabled=cache),
        # Live streaming of every sample's events to the viewer is Inspect's largest per-sample cost on 2 cores,
        # for API and in-process models alike (perf/api_throughput.py measures it). Finished samples are still
        # written to the log every few samples (Inspect's log_buffer) for eval-retry, and any a crash kept from the
        # log are answered again from the response cache, not paid for again. `--log-realtime` turns it back on.
        "log_realtime": False,
        "retry_on_error": RETRY_ON_ERROR,
    }
    if not provider_of(model).in_process:
        options |= {"attempt_timeout": REQUEST_TIMEOUT_S, "max_retries": MAX_RETRIES}
    return options


def command_defaults(model: str, cache: bool) -> dict[str, Any]:
    """`eval_options` as the values of `inspect eval`'s own command-line parameters."""
    from inspect_ai.model import CachePolicy

    params: dict[str, Any] = {}
    for name, value in eval_options(model, cache).items():
        if name == "cache":
            params["cache"] = value.expiry if isinstance(value, CachePolicy) else None
        elif name == "log_realtime":
            params["no_log_realtime"] = not value
        else:
            params[name] = value
    return params


def launch_params(params: dict[str, Any], model: str, given: Collection[str],
                  cache: bool = True) -> tuple[dict[str, Any], str | None]:
    """Inspect's options for the run: figeval's defaults where the user gave none (`command_defaults`), a local
    server's own settings, the model; and the line that says what a local server was given (None for others).

    Args:
        params: `inspect eval`'s options by their parameter names.
        model: the model under test.
        given: the options the user gave (figeval's default is not applied to them).
        cache: the response cache on (figeval's default) or off.
    """
    from figeval.arguments import parse_pairs
    from figeval.models.local_server import OPTIONS as LOCAL_OPTIONS
    from figeval.models.local_server import local_server_settings

    params = params | {name: value for name, value in command_defaults(model, cache).items() if name not in given}
    model_args = parse_pairs(params.get("m") or (), "-M")
    local = local_server_settings(model, given={name: params.get(name) for name in LOCAL_OPTIONS if name in given},
                                  base_url=params.get("model_base_url") or model_args.get("base_url"))
    if local is None:
        return params | {"model": model}, None
    # a server on this machine or network: its slots as connections, nothing abandoned
    return params | local.options | {"model": model}, local.note


def with_judge(args: dict[str, Any], judge: str | None) -> dict[str, Any]:
    """`--judge MODEL` as the task argument it stands for.

    Raises:
        FigevalError: `--judge` beside a different `-T judge=`.
    """
    from figeval.running.models import JudgeOption

    if judge is None:
        return args
    if args.get("judge", judge) != judge:
        raise FigevalError(f"--judge {judge} and -T judge={args['judge']}: give the judge once.")
    return args | {"judge": JudgeOption(judge)}


def prepared_task(benchmarks: Sequence[Benchmark], task_name: str, args: dict[str, Any], params: dict[str, Any],
                  model: str, run_name: str | None, roles: tuple[str, ...]) -> tuple[Any, str | None]:
    """The task built and checked as its run needs it, before any model is asked, and the rule of the subset
    `--limit N` selects (None: no subset); `params` gets the subset's `sample_id`.

    Raises:
        FigevalError: an unknown task or argument, missing data, a selection, model or role the run would fail
            on (each in one line).
    """
    from figeval.running.models import check_judge_given, check_manual_labels, check_other_models, check_roles
    from figeval.running.options import apply_display_name, apply_subset, check_limit_in_dataset, check_sample_ids
    from figeval.running.tasks import make_task, task_parameters

    task = make_task(benchmarks, task_name, args)  # unknown task or arguments, missing data: before any model call
    check_sample_ids(task, task_name, params.get("sample_id"))
    check_limit_in_dataset(task, task_name, params.get("limit"))
    subset = apply_subset(task, task_name, params)
    apply_display_name(task, run_name, params.get("metadata"))
    parameters = task_parameters(benchmarks, task_name)
    check_roles(task_name, parameters, args, roles)
    check_other_models(args, roles)
    check_manual_labels(benchmarks, args, model)
    check_judge_given(task_name, parameters, args, roles)
    return task, subset
