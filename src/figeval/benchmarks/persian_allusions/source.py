"""Where the Persian allusion datasets are published, as far as figeval knows.

As for the Turkish idioms: the repository the paper names could not be reached or found; the file names and
columns are figeval's assumptions (dataset.py's UPSTREAM_COLUMN). The files are imported from a folder and
their sha256 trusted on first import, once their columns read as declared here.
"""

from figeval.data.source import PARAGRAPHS_CHARS, SENTENCE_CHARS, WORDS_CHARS, DataFile, DatasetSource
from figeval.data.table import Column


def _persian(name: str, limit: int) -> Column:
    return Column(name, persian=True, max_chars=limit)


SOURCE = DatasetSource(
    name="persian-allusions",
    description="Persian allusions: PersPoems (200 couplets) and LLM-Generated (75 passages) "
    "(Nobakhtian, Yaghoobzadeh, Pilehvar)",
    homepage="https://github.com/MelikaNobakhtian/Allusion",
    commit=None,
    base_url=None,
    where="The paper (Nobakhtian, Yaghoobzadeh and Pilehvar, Abstract) says 'Our code, datasets and results are "
    "available at https://github.com/MelikaNobakhtian/Allusion'; figeval could not confirm its files, so none "
    "is pinned: download PersPoems and LLM-Generated from there (or ask the authors).",
    # A couplet is two hemistichs (Table 1): one verse. An allusion's story, and a generated passage of "4-6 lines
    # of text" (Appendix A, Table 5), are a paragraph or a few.
    files=(DataFile("PersPoems.csv", None, columns=(
               Column("poet", required=False, max_chars=WORDS_CHARS), Column("themes", max_chars=WORDS_CHARS),
               Column("entities", required=False, max_chars=SENTENCE_CHARS),
               _persian("couplet", SENTENCE_CHARS), _persian("allusion", WORDS_CHARS),
               _persian("description", PARAGRAPHS_CHARS))),
           DataFile("LLM-Generated.csv", None, columns=(
               _persian("text", PARAGRAPHS_CHARS), _persian("allusion", WORDS_CHARS)))),
)
