"""`figeval run`: a benchmark task on a model, with this field's defaults, ending with a summary table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from figeval.cli.options import DEFAULT_LOG_DIR, parse_pairs
from figeval.errors import FigevalError


# A sample whose model call failed (a dropped connection, an empty or malformed response the provider could not
# parse) is asked again this many times before it counts as an error; Inspect's default, 0, ends a long API run
# at the first such response.
RETRY_ON_ERROR = 3
# Seconds one request may take before it is abandoned and retried (Inspect waits 600 s by default); API models
# only: an in-process model has no connection to hang.
REQUEST_TIMEOUT_S = 120
IN_PROCESS = ("gguf/", "replay/", "mockllm/")
# OpenAI's own model names; any other name under openai/ is treated by Inspect as an unknown (reasoning) model.
OPENAI_MODEL = re.compile(r"^(gpt-|chatgpt-|o\d|ft:|text-|davinci|babbage|codex|computer-use)")


def check_provider(model: str) -> None:
    """Raises FigevalError for a model whose provider Inspect does not know (before any task is built)."""
    from inspect_ai._util.registry import registry_find, registry_unqualified_name

    provider, slash, _ = model.partition("/")
    known = {registry_unqualified_name(info) for info in registry_find(lambda info: info.type == "modelapi")}
    if not slash or provider not in known:
        raise FigevalError(f"--model {model}: unknown provider {provider!r}; give provider/model, e.g. "
                           f"openai/gpt-4.1, vllm/<model>, gguf/<file.gguf>, replay/<file.jsonl> (providers: "
                           f"{', '.join(sorted(known))}).")


def openai_name_warning(model: str) -> str | None:
    """A warning for `openai/<name>` where the name is not one of OpenAI's: an OpenAI-compatible server (vLLM,
    llama.cpp's server, Ollama) needs its own provider prefix, or Inspect sends it OpenAI-only requests."""
    provider, _, name = model.partition("/")
    if provider != "openai" or OPENAI_MODEL.match(name):
        return None
    return (f"warning: '{name}' is not an OpenAI model name; for an OpenAI-compatible server use "
            f"openai-api/<service>/{name} (with <SERVICE>_BASE_URL and <SERVICE>_API_KEY), vllm/{name}, "
            f"ollama/{name} or llama-cpp-python/{name}.")


def eval_options(model: str, cache: bool = True) -> dict[str, Any]:
    """The Inspect eval settings `figeval run` adds for a model (also used by perf/ to measure the same thing)."""
    from figeval.answering import response_cache

    options: dict[str, Any] = {
        "cache": response_cache(model, enabled=cache),
        # An in-process model shares the CPU with Inspect: live sample streaming to the viewer costs ~5% of
        # logprob throughput there (perf/). Finished samples are still written to the log for eval-retry.
        "log_realtime": not model.startswith("gguf/"),
        "retry_on_error": RETRY_ON_ERROR,
    }
    if not model.startswith(IN_PROCESS):
        options["attempt_timeout"] = REQUEST_TIMEOUT_S
    return options


@click.command()
@click.argument("task_name", metavar="TASK")
@click.option("--model", "-m", default=None, help="provider/model; default gguf/gemma-3-270m (embedded).")
@click.option("-T", "task_args", multiple=True, help="Task argument name=value (repeatable).")
@click.option("-M", "model_args", multiple=True, help="Model argument name=value (repeatable).")
@click.option("--limit", type=int, default=None, help="Run only the first N samples.")
@click.option("--epochs", type=click.IntRange(min=1), default=None,
              help="Ask each sample N times; each sample's most frequent answer is scored.")
@click.option("--log-dir", default=DEFAULT_LOG_DIR, show_default=True, help="Where the .eval log is written.")
@click.option("--no-cache", is_flag=True, help="Do not reuse or store model responses in Inspect's cache.")
@click.option("--max-connections", type=click.IntRange(min=1), default=None,
              help="Concurrent requests to the model (Inspect's default: 10).")
@click.option("--max-retries", type=click.IntRange(min=0), default=None,
              help="Retries of a failed request, with backoff (Inspect's default: until its timeout).")
@click.option("--timeout", type=click.IntRange(min=1), default=None,
              help=f"Seconds one request may take before it is retried (default for API models: {REQUEST_TIMEOUT_S}).")
@click.option("--retry-on-error", type=click.IntRange(min=0), default=None,
              help=f"Times a sample whose model call failed is asked again (default: {RETRY_ON_ERROR}).")
@click.option("--fail-on-error", type=float, default=None,
              help="Errors that fail the run: a count (>= 1) or a share (< 1) of samples (Inspect's default: the "
                   "first, after retries).")
def run(
    task_name: str,
    model: str | None,
    task_args: tuple[str, ...],
    model_args: tuple[str, ...],
    limit: int | None,
    epochs: int | None,
    log_dir: str,
    no_cache: bool,
    max_connections: int | None,
    max_retries: int | None,
    timeout: int | None,
    retry_on_error: int | None,
    fail_on_error: float | None,
) -> None:
    """Run a benchmark task and print its summary table."""
    from inspect_ai import eval as inspect_eval

    from figeval._compat import preload_inspect_modules
    from figeval._registry import make_task, takes_answer_mode
    from figeval.models.gguf import DEFAULT_MODEL
    from figeval.reporting.runs import format_table, newest_log, summarize

    model = model or DEFAULT_MODEL
    args = parse_pairs(task_args, "-T", typed=False)
    if model.startswith("gguf/") and takes_answer_mode(task_name):
        # Base GGUF models continue text instead of answering; compare the answers' probabilities instead.
        args.setdefault("answer_mode", "logprob")
    check_provider(model)
    task = make_task(task_name, args)
    if warning := openai_name_warning(model):
        click.echo(warning, err=True)
    preload_inspect_modules()
    click.echo(f"figeval: {task_name} on {model} ({', '.join(f'{k}={v}' for k, v in args.items()) or 'defaults'})")
    if limit is not None and limit < 1:
        raise FigevalError(f"--limit {limit}: give a number of samples of 1 or more.")
    options = eval_options(model, cache=not no_cache)
    given = {"max_connections": max_connections, "max_retries": max_retries, "attempt_timeout": timeout,
             "retry_on_error": retry_on_error,
             "fail_on_error": (int(fail_on_error) if fail_on_error is not None and fail_on_error >= 1 else fail_on_error)}
    options |= {name: value for name, value in given.items() if value is not None}
    logs = inspect_eval(
        task,
        model=model,
        model_args=parse_pairs(model_args, "-M"),
        limit=limit,
        epochs=epochs,
        log_dir=log_dir,
        **options,
    )
    if not logs:  # Inspect returns no log when the user interrupts; the log on disk has every finished sample
        raise FigevalError(
            f"run interrupted; finished samples are kept in {newest_log(Path(log_dir))}; "
            "resume with `inspect eval-retry <that log>`."
        )
    log = logs[0]
    summary = summarize(log)
    if log.status != "success":
        message = log.error.message if log.error else log.status
        raise FigevalError(
            f"run {log.status}: {message.strip().splitlines()[-1]} | completed samples are kept in {log.location}; "
            f"resume with `inspect eval-retry {log.location}`."
        )
    click.echo("\n" + format_table(summary))
    click.echo(f"log: {log.location} (view with `inspect view --log-dir {log_dir}`)")
