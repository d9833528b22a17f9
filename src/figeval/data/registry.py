"""Pinned sources of the datasets figeval evaluates on.

Each entry names an upstream repository at a fixed commit and the SHA-256 of every file taken from it, so a
result can always be traced to the exact bytes it was computed on. The files are fetched, never committed:
upstream licenses do not allow redistribution (FFE-HALLU declares none).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from figeval.errors import DataError


@dataclass(frozen=True)
class DataFile:
    name: str
    """The upstream file name, also the name it is stored under."""
    sha256: str | None
    """The pinned hash; None for an unpinned source (the hash of the first fetch is recorded and enforced)."""


@dataclass(frozen=True)
class DatasetSource:
    name: str
    description: str
    homepage: str
    commit: str
    """A commit hash; for an unpinned source, the branch fetched."""
    base_url: str
    """Raw-file URL prefix at the pinned commit; a file's URL is this plus its URL-encoded name."""
    files: tuple[DataFile, ...]

    def url(self, file: DataFile) -> str:
        return self.base_url + quote(file.name)

    @property
    def pinned(self) -> bool:
        return all(file.sha256 is not None for file in self.files)

    @property
    def pin(self) -> str:
        suffix = "" if self.pinned else " (unpinned: sha256 recorded on first fetch)"
        return f"{self.homepage}@{self.commit}{suffix}"


_FFE_HALLU_COMMIT = "58dfdbdc7a50dbd80acbeba5b057ae7cabe40f77"

DATASETS: dict[str, DatasetSource] = {
    "ffe-hallu": DatasetSource(
        name="ffe-hallu",
        description="FFE-HALLU: 200 authentic and 200 fabricated Persian idioms/proverbs (Hosseini et al., EACL 2026)",
        homepage="https://github.com/hfaezeh77/FFE-Hallu-Benchmark",
        commit=_FFE_HALLU_COMMIT,
        base_url=f"https://raw.githubusercontent.com/hfaezeh77/FFE-Hallu-Benchmark/{_FFE_HALLU_COMMIT}/",
        files=(
            DataFile("Authentic FFEs.csv", "91ad222822e903106d169ba9c0b310082a6bd4dcb2823e13be2e4ed648284432"),
            DataFile("Fake FFEs.csv", "fbfa773757fcb634ba799adc486b087648d641a02a3180691d3f08ef6e3b75cc"),
        ),
    ),
    # The repository could not be reached from where this was written: its branch, file name and layout are
    # assumptions (the column mapping is one table in benchmarks/turkish_idioms/dataset.py). A user holding the
    # file can `figeval data import turkish-idioms FOLDER`.
    "turkish-idioms": DatasetSource(
        name="turkish-idioms",
        description="An Idiom Benchmark for Turkish: 200 idioms with figurative, literal, paraphrase and similar "
        "sentences (Cavusoglu and Coltekin)",
        homepage="https://github.com/coltekin/turkish-idioms",
        commit="main",
        base_url="https://raw.githubusercontent.com/coltekin/turkish-idioms/main/",
        files=(DataFile("idioms.tsv", None),),
    ),
    # Unreachable from where this was written, like turkish-idioms: file names and columns are assumptions
    # (benchmarks/persian_allusions/dataset.py); `figeval data import persian-allusions FOLDER` with the files.
    "persian-allusions": DatasetSource(
        name="persian-allusions",
        description="Persian allusions: PersPoems (200 couplets) and LLM-Generated (75 passages) "
        "(Nobakhtian, Yaghoobzadeh, Pilehvar)",
        homepage="https://github.com/MelikaNobakhtian/Allusion",
        commit="main",
        base_url="https://raw.githubusercontent.com/MelikaNobakhtian/Allusion/main/",
        files=(DataFile("PersPoems.csv", None), DataFile("LLM-Generated.csv", None)),
    ),
    # PerHalluEval's sources. Locations unverified from here (no access): `figeval build perhallueval --source
    # FILE` takes local files, and `figeval data import NAME FOLDER` stores them.
    "pquad": DatasetSource(
        name="pquad",
        description="PQuAD: Persian SQuAD-style QA, about 80k questions in 19 categories (Darvishi et al.)",
        homepage="https://github.com/AUT-Data-Group/PQuAD",
        commit="main",
        base_url="https://raw.githubusercontent.com/AUT-Data-Group/PQuAD/main/Dataset/",
        files=(DataFile("Train.json", None),),
    ),
    "pn-summary": DatasetSource(
        name="pn-summary",
        description="PN-Summary: 93,207 Persian news articles with summaries in three splits (Farahani et al.)",
        homepage="https://github.com/hooshvare/pn-summary",
        commit="main",
        base_url="https://raw.githubusercontent.com/hooshvare/pn-summary/main/data/",
        # PerHalluEval's 93,207 articles (Section 3.1) are all three splits together.
        files=(DataFile("train.csv", None), DataFile("dev.csv", None), DataFile("test.csv", None)),
    ),
}


def get_source(name: str) -> DatasetSource:
    try:
        return DATASETS[name]
    except KeyError:
        raise DataError(f"unknown dataset '{name}'; known: {', '.join(sorted(DATASETS))}") from None
