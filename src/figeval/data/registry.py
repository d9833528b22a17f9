"""Pinned sources of the datasets figeval evaluates on.

Each entry names where a user with internet gets the files (a URL at a fixed commit) and what the bytes must
be, so a result can always be traced to the exact bytes it was computed on. A file is pinned by its SHA-256;
where only its git blob id could be read (the file itself was out of reach where this was written), by that
id; a dataset published as one archive is pinned by the archive's SHA-256 and its files are extracted from it.
A dataset with no known public download says where its paper puts the data and is imported from local files;
nothing pins their bytes, so each such file declares its columns as published (the script of each text column and
the longest cell it holds) and is read against them before its sha256 is first recorded and trusted.
The files are fetched, never committed: upstream licenses do not allow redistribution (FFE-HALLU declares none).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from figeval.data.table import Column
from figeval.errors import DataError


@dataclass(frozen=True)
class DataFile:
    name: str
    """The upstream file name, also the name it is stored under."""
    sha256: str | None
    """The pinned hash; None when it is not known (the hash of the first store is recorded and enforced)."""
    git_blob: str | None = None
    """The file's git blob id in the upstream tree at the pinned commit, for a file whose sha256 is not known:
    the file must match it (git's own content hash), and its sha256 is recorded when first stored."""
    member: str | None = None
    """The file's path in the published layout: inside the archive, or in the upstream repository (an import
    also finds it there, e.g. in a clone)."""
    columns: tuple[Column, ...] = ()
    """For a file trusted on first import (no sha256, git blob id or archive fixes its bytes): its columns as
    published, each with its script and longest cell, read by the store (`table.read_table`) before its sha256
    is recorded. They repeat what the benchmark's reader expects (tests/data/test_content.py compares them)."""

    @property
    def trusted_on_first_import(self) -> bool:
        """Nothing of the file's own pins its bytes (a dataset's archive may still: `DatasetSource.pins_bytes`)."""
        return self.sha256 is None and self.git_blob is None


@dataclass(frozen=True)
class Archive:
    """The one file a dataset is published as (downloaded, or imported as downloaded); its files are extracted."""

    name: str
    sha256: str


@dataclass(frozen=True)
class DatasetSource:
    name: str
    description: str
    homepage: str
    """Where the files are published (for a dataset with no known download, where its paper says they are)."""
    commit: str | None
    """The commit the URLs are pinned at; for an unpinned source, the branch; None without a download."""
    base_url: str | None
    """Download URL prefix at the pinned commit (a file's URL is this plus its URL-encoded name, or the
    archive's); None when no public download is known."""
    files: tuple[DataFile, ...]
    archive: Archive | None = None
    where: str = ""
    """For a dataset without a known download: where its paper says the data is, in one sentence."""
    mirror: str = ""
    """Another URL known to serve the same bytes (said in messages; fetch uses base_url)."""

    def url(self, file: DataFile) -> str:
        if self.base_url is None:
            raise DataError(no_download_message(self))
        return self.base_url + quote(file.name)

    @property
    def downloads(self) -> tuple[tuple[str, str], ...]:
        """(name, URL) of each file a fetch downloads: the archive alone, or every file."""
        if self.base_url is None:
            return ()
        names = [self.archive.name] if self.archive else [file.name for file in self.files]
        return tuple((name, self.base_url + quote(name)) for name in names)

    def pins_bytes(self, file: DataFile) -> bool:
        """Whether the file's bytes are fixed by a pin (its sha256 or git blob id, or the archive's sha256);
        otherwise its first import is trusted, once its content passes `file.columns`."""
        return self.archive is not None or not file.trusted_on_first_import

    @property
    def pinned(self) -> bool:
        if self.archive is not None:
            return True
        return all(file.sha256 is not None or file.git_blob is not None for file in self.files)

    @property
    def pin(self) -> str:
        if self.base_url is None:
            return "no public download known (unpinned: sha256 recorded on first import)"
        if self.archive is not None:
            return f"{self.homepage}@{self.commit} ({self.archive.name}, sha256 {self.archive.sha256})"
        suffix = "" if self.pinned else " (unpinned: sha256 recorded on first fetch)"
        return f"{self.homepage}@{self.commit}{suffix}"


def no_download_message(source: DatasetSource) -> str:
    """One line: there is no known download of this dataset, where its paper puts it, and how to import it."""
    names = ", ".join(repr(file.name) for file in source.files)
    return (f"{source.name}: no public download is known. {source.where} With the files, put {names} in a "
            f"folder and run `figeval data import {source.name} FOLDER`.")


# The longest cell of each kind of text in a file trusted on first import: generous against the papers' data (a
# longer cell is a row damaged, e.g. by a quote left open that swallowed the rows after it, or another file).
WORDS_CHARS = 500
"""An idiom, an allusion's title, a poet's name, themes: a few words."""
SENTENCE_CHARS = 2_000
"""One sentence or one couplet: the Turkish idiom sentences average about 9 tokens (Cavusoglu and Coltekin,
Section 3), a couplet two hemistichs (Persian allusions, Table 1)."""
PARAGRAPHS_CHARS = 20_000
"""A description or passage of a paragraph or a few: a dictionary definition, some with quotations from
literature (Turkish idioms, Section 3), an allusion's story, a generated passage of "4-6 lines of text" (Persian
allusions, Appendix A, Table 5); for scale, PQuAD's longest context paragraph in its validation and test files is
1,707 characters."""


def _turkish(name: str, required: bool = True, limit: int = SENTENCE_CHARS) -> Column:
    return Column(name, required=required, latin=True, max_chars=limit)


def _persian(name: str, limit: int) -> Column:
    return Column(name, persian=True, max_chars=limit)


_FFE_HALLU_COMMIT = "58dfdbdc7a50dbd80acbeba5b057ae7cabe40f77"
# AUT-NLP/PQuAD's last commit (README edits after the dataset commit f7fd68f, whose files it keeps unchanged).
_PQUAD_COMMIT = "b1724102bdb2f00a61c8ca9f81250ceff9db1872"
# The Hugging Face hub copy of PN-Summary's zip: the commit that added data/pn_summary.zip. Its git-lfs pointer
# gives oid sha256:49aa6a5f... size 89591141, the checksum huggingface/datasets recorded for the same zip
# downloaded from the README's Google Drive link (datasets/pn_summary/dataset_infos.json at commit 90b1a33).
_PN_SUMMARY_HUB_COMMIT = "ad0b1f8142c6d3aed007cfd57294b058eb0503c6"

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
    # The paper names a repository but it could not be reached from where this was written (nor found in an index
    # of public repositories): no download is pinned, and the file name and columns are figeval's assumptions
    # (benchmarks/turkish_idioms/dataset.py, one table to edit).
    "turkish-idioms": DatasetSource(
        name="turkish-idioms",
        description="An Idiom Benchmark for Turkish: 200 idioms with figurative, literal, paraphrase and similar "
        "sentences (Cavusoglu and Coltekin)",
        homepage="https://github.com/coltekin/turkish-idioms",
        commit=None,
        base_url=None,
        where="The paper (Cavusoglu and Coltekin, Section 5) says 'The current version of the dataset is available "
        "at https://github.com/coltekin/turkish-idioms'; figeval could not confirm its files, so none is pinned: "
        "download them from there (or ask the authors for the 200 idioms and 797 sentences).",
        # the columns turkish_idioms/dataset.py reads (its UPSTREAM_COLUMN: figeval's assumption of the header)
        files=(DataFile("idioms.tsv", None, columns=(
            _turkish("idiom", limit=WORDS_CHARS), _turkish("description", required=False, limit=PARAGRAPHS_CHARS),
            _turkish("figurative"), _turkish("paraphrase"), _turkish("similar"), _turkish("literal", required=False),
            Column("frequency", required=False, optional=True, max_chars=WORDS_CHARS))),),
    ),
    # As for turkish-idioms: the repository the paper names could not be reached or found; names and columns are
    # assumptions (benchmarks/persian_allusions/dataset.py).
    "persian-allusions": DatasetSource(
        name="persian-allusions",
        description="Persian allusions: PersPoems (200 couplets) and LLM-Generated (75 passages) "
        "(Nobakhtian, Yaghoobzadeh, Pilehvar)",
        homepage="https://github.com/MelikaNobakhtian/Allusion",
        commit=None,
        base_url=None,
        where="The paper (Nobakhtian, Yaghoobzadeh and Pilehvar, Abstract) says 'Our code, datasets and results are "
        "available at https://github.com/MelikaNobakhtian/Allusion'; figeval could not confirm its files, so none "
        "is pinned: download PersPoems and LLM-Generated from there (or ask the authors).",
        # the columns persian_allusions/dataset.py reads (its UPSTREAM_COLUMN: figeval's assumption of the headers)
        files=(DataFile("PersPoems.csv", None, columns=(
                   Column("poet", required=False, max_chars=WORDS_CHARS), Column("themes", max_chars=WORDS_CHARS),
                   Column("entities", required=False, max_chars=SENTENCE_CHARS),
                   _persian("couplet", SENTENCE_CHARS), _persian("allusion", WORDS_CHARS),
                   _persian("description", PARAGRAPHS_CHARS))),
               DataFile("LLM-Generated.csv", None, columns=(
                   _persian("text", PARAGRAPHS_CHARS), _persian("allusion", WORDS_CHARS)))),
    ),
    # PerHalluEval's QA source. Section 3.1 samples from "about 80,000 questions": the three splits together
    # (63,994 + 7,976 + 8,002 = 79,972 in the upstream README). Validation and Test were hashed from copies whose
    # git blob ids equal the upstream tree's; Train.json's sha256 could not be computed where this was written,
    # so it is pinned by its blob id in that tree.
    "pquad": DatasetSource(
        name="pquad",
        description="PQuAD: Persian SQuAD-style QA, 79,972 questions in train, validation and test (Darvishi et al.)",
        homepage="https://github.com/AUT-NLP/PQuAD",
        commit=_PQUAD_COMMIT,
        base_url=f"https://raw.githubusercontent.com/AUT-NLP/PQuAD/{_PQUAD_COMMIT}/Dataset/",
        files=(
            DataFile("Train.json", None, git_blob="561d1c7a1b3693f83ab709c45a8c0e41d561e48c",
                     member="Dataset/Train.json"),
            DataFile("Validation.json", "56bda77e921c233236ce960c12ac6d99aa6a4a6d7706573e885842d37ab67396",
                     member="Dataset/Validation.json"),
            DataFile("Test.json", "50da77a97ddaf1fc6fb298c6591dbc2ec3e070cb5216419740a511cbd1ccc054",
                     member="Dataset/Test.json"),
        ),
    ),
    # PerHalluEval's summarization source. The git repository holds no data: its README links one zip of three
    # tab-separated files (pn_summary/train.csv, dev.csv, test.csv; 82,022 + 5,592 + 5,593 = 93,207 articles,
    # Section 3.1's count), on Google Drive; the Hugging Face hub serves the same zip.
    "pn-summary": DatasetSource(
        name="pn-summary",
        description="PN-Summary: 93,207 Persian news articles with summaries in three splits (Farahani et al.)",
        homepage="https://huggingface.co/datasets/HooshvareLab/pn_summary",
        commit=_PN_SUMMARY_HUB_COMMIT,
        base_url=f"https://huggingface.co/datasets/HooshvareLab/pn_summary/resolve/{_PN_SUMMARY_HUB_COMMIT}/data/",
        archive=Archive("pn_summary.zip", "49aa6a5fdb11244714f9bbe69517f2079ab934c9c565e272a977fbd8d2d404f7"),
        mirror="https://drive.google.com/uc?id=16OgJ_OrfzUF_i3ftLjFn9kpcyoi7UJeO (the link in "
        "https://github.com/hooshvare/pn-summary's README)",
        files=(DataFile("train.csv", None, member="pn_summary/train.csv"),
               DataFile("dev.csv", None, member="pn_summary/dev.csv"),
               DataFile("test.csv", None, member="pn_summary/test.csv")),
    ),
}


def get_source(name: str) -> DatasetSource:
    try:
        return DATASETS[name]
    except KeyError:
        raise DataError(f"unknown dataset '{name}'; known: {', '.join(sorted(DATASETS))}") from None
