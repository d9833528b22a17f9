"""Where PerHalluEval's builders take their questions and articles from (`figeval build
perhallueval-candidates`), pinned.

Section 3.1 samples from "about 80,000 questions" of PQuAD (its three splits together: 63,994 + 7,976 + 8,002 =
79,972 in the upstream README) and from PN-Summary's 93,207 articles.
"""

from figeval.data.source import Archive, DataFile, DatasetSource

# AUT-NLP/PQuAD's last commit (README edits after the dataset commit f7fd68f, whose files it keeps unchanged).
_PQUAD_COMMIT = "b1724102bdb2f00a61c8ca9f81250ceff9db1872"
# The Hugging Face hub copy of PN-Summary's zip: the commit that added data/pn_summary.zip. Its git-lfs pointer
# gives oid sha256:49aa6a5f... size 89591141, the checksum huggingface/datasets recorded for the same zip
# downloaded from the README's Google Drive link (datasets/pn_summary/dataset_infos.json at commit 90b1a33).
_PN_SUMMARY_HUB_COMMIT = "ad0b1f8142c6d3aed007cfd57294b058eb0503c6"

# Validation and Test were hashed from copies whose git blob ids equal the upstream tree's; Train.json's sha256
# could not be computed where this was written, so it is pinned by its blob id in that tree.
PQUAD = DatasetSource(
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
)

# The git repository holds no data: its README links one zip of three tab-separated files (pn_summary/train.csv,
# dev.csv, test.csv; 82,022 + 5,592 + 5,593 = 93,207 articles, Section 3.1's count), on Google Drive; the Hugging
# Face hub serves the same zip.
PN_SUMMARY = DatasetSource(
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
)
