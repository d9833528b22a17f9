"""Where each dataset comes from: PN-Summary's zip as published (imported and fetched), PQuAD's JSON files pinned
by sha256 or by git blob id, and the one-line answer of a dataset with no known public download."""

import dataclasses
import hashlib
import os
import shutil
import zipfile
from pathlib import Path

import pytest

import figeval._registry  # noqa: F401  (registers each dataset's reader with the store)
from figeval.benchmarks.perhallueval.selection import load_pn_summary
from figeval._registry import datasets, get_source
from figeval.data.source import Archive, DataFile
from figeval.data.store import fetch, import_folder, require
from figeval.data.stored import FileState, dataset_dir, file_statuses, git_blob_id, recorded_hashes
from figeval.errors import DataError
from tests.command import figeval
from tests.data.test_store import http_server, local_copy_of  # noqa: F401  (the fixture)


# --- PN-Summary: one zip of three tab-separated files ------------------------------------------------------

# The README's table of columns and its loading code: tab-separated, 8 columns, newlines written as "[n]".
HEADER = "id\ttitle\tarticle\tsummary\tcategory\tcategories\tnetwork\tlink\n"


def pn_row(key: str, article: str, summary: str = "خلاصهٔ خبر") -> str:
    return f"{key}\tعنوان خبر\t{article}\t{summary}\tOil-Energy\tنفت\tShana\thttps://www.shana.ir/news/{key}\n"


SPLITS = {
    "train.csv": HEADER + pn_row("t1", "به گزارش شانا،[n]قیمت نفت افزایش یافت.") + pn_row("t2", "متن دوم خبر")
    + pn_row("t3", "متن سوم خبر است"),
    "dev.csv": HEADER + pn_row("d1", "متن خبر اعتبارسنجی"),
    "test.csv": HEADER + pn_row("s1", "متن خبر آزمون"),
}


def pn_summary_zip(path: Path, splits: dict[str, str] = SPLITS) -> Path:
    """A zip in the published layout: pn_summary/train.csv, dev.csv, test.csv (the README's `unzip` then
    `pd.read_csv('pn_summary/train.csv', sep="\\t")`)."""
    with zipfile.ZipFile(path, "w") as bundle:
        for name, text in splits.items():
            bundle.writestr(f"pn_summary/{name}", text.encode("utf-8"))
    return path


def pinned_to(path: Path):
    """The registry's pn-summary, its archive pinned to this zip's bytes (the real zip is 89.6 MB and not here)."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return dataclasses.replace(get_source("pn-summary"), archive=Archive("pn_summary.zip", digest))


def test_pn_summary_zip_as_downloaded_is_imported(tmp_path: Path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    source = pinned_to(pn_summary_zip(folder / "pn_summary.zip"))
    said: list[str] = []
    stored = import_folder(source, folder, report=said.append)
    assert sorted(p.name for p in stored.iterdir()) == ["dev.csv", "recorded-sha256.json", "test.csv", "train.csv"]
    # each stored split is the zip's member byte for byte, and its sha256 is recorded for later checks
    assert (stored / "dev.csv").read_text(encoding="utf-8") == SPLITS["dev.csv"]
    assert recorded_hashes(source) == {name: hashlib.sha256(text.encode()).hexdigest() for name, text in SPLITS.items()}
    assert [s.state for s in file_statuses(source)] == [FileState.OK] * 3
    # train.csv: 3 articles; "[n]" is a newline again, so "شانا،" and "قیمت" are two words, not one
    train = load_pn_summary(stored / "train.csv")
    assert [item.id for item in train] == ["t1", "t2", "t3"]
    assert train[0].context == "به گزارش شانا،\nقیمت نفت افزایش یافت." and len(train[0].context.split()) == 7
    assert require(source) == {name: stored / name for name in ("train.csv", "dev.csv", "test.csv")}


def test_the_zip_itself_may_be_given_under_any_name(tmp_path: Path):
    # a browser saving a second copy names it "pn_summary (1).zip"
    archive = pn_summary_zip(tmp_path / "pn_summary (1).zip")
    source = pinned_to(archive)
    import_folder(source, archive)
    assert [s.state for s in file_statuses(source)] == [FileState.OK] * 3


def test_a_zip_that_is_not_the_published_one_is_refused(tmp_path: Path):
    pn_summary_zip(tmp_path / "pn_summary.zip")
    source = get_source("pn-summary")  # pinned to the real zip's sha256 (its Hugging Face LFS oid)
    with pytest.raises(DataError, match=r"'pn_summary.zip' has sha256 [0-9a-f]{64}, but pn-summary is pinned to "
                                        r"49aa6a5fdb11244714f9bbe69517f2079ab934c9c565e272a977fbd8d2d404f7; nothing "
                                        r"was stored"):
        import_folder(source, tmp_path)
    assert [s.state for s in file_statuses(source)] == [FileState.MISSING] * 3


def test_extracted_files_without_the_zip_are_refused_with_where_to_get_it(tmp_path: Path):
    for name, text in SPLITS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as error:
        import_folder(get_source("pn-summary"), tmp_path)
    message = str(error.value)
    assert message.startswith(f"{tmp_path} has no file 'pn_summary.zip'; pn-summary is imported as published")
    assert "https://huggingface.co/datasets/HooshvareLab/pn_summary/resolve/ad0b1f8" in message
    assert "https://drive.google.com/uc?id=16OgJ_OrfzUF_i3ftLjFn9kpcyoi7UJeO" in message and "\n" not in message


def test_a_zip_missing_a_split_stores_nothing(tmp_path: Path):
    archive = pn_summary_zip(tmp_path / "pn_summary.zip", {k: v for k, v in SPLITS.items() if k != "test.csv"})
    source = pinned_to(archive)
    with pytest.raises(DataError, match=r"'pn_summary.zip' has no 'pn_summary/test.csv'; pn-summary needs "
                                        r"'pn_summary/train.csv', 'pn_summary/dev.csv', 'pn_summary/test.csv'"):
        import_folder(source, archive)
    assert not dataset_dir(source).exists()


def test_a_split_the_reader_refuses_stores_nothing(tmp_path: Path):
    # dev.csv's article in Latin letters only: the reader's Persian-script check names the file and row
    broken = dict(SPLITS, **{"dev.csv": HEADER + pn_row("d1", "no Persian here")})
    source = pinned_to(pn_summary_zip(tmp_path / "pn_summary.zip", broken))
    with pytest.raises(DataError,
                       match=r"dev.csv: column 'article' has no Persian letters in 1 of 1 rows .* Nothing was stored"):
        import_folder(source, tmp_path / "pn_summary.zip")
    assert [s.state for s in file_statuses(source)] == [FileState.MISSING] * 3


def test_pn_summary_fetch_downloads_the_zip_once_and_extracts_it(http_server, tmp_path: Path):  # noqa: F811
    base_url, root = http_server
    source = local_copy_of(pinned_to(pn_summary_zip(root / "pn_summary.zip")), base_url)
    said: list[str] = []
    fetch(source, report=said.append)
    assert said == [f"downloading {base_url}pn_summary.zip"]  # one download (the zip), not one per split
    assert [s.state for s in file_statuses(source)] == [FileState.OK] * 3
    assert not any(p.suffix == ".zip" for p in dataset_dir(source).iterdir())  # the zip is not kept


def test_the_registry_pins_pn_summary_at_a_hub_commit():
    source = get_source("pn-summary")
    [(name, url)] = source.downloads
    assert name == "pn_summary.zip"
    assert url == ("https://huggingface.co/datasets/HooshvareLab/pn_summary/resolve/"
                   "ad0b1f8142c6d3aed007cfd57294b058eb0503c6/data/pn_summary.zip")
    assert [f.member for f in source.files] == ["pn_summary/train.csv", "pn_summary/dev.csv", "pn_summary/test.csv"]


# --- datasets with no known public download -----------------------------------------------------------------

@pytest.mark.parametrize("name, files", [("turkish-idioms", "'idioms.tsv'"),
                                         ("persian-allusions", "'PersPoems.csv', 'LLM-Generated.csv'")])
def test_fetch_without_a_known_download_says_in_one_line_how_to_import(name: str, files: str, tmp_path: Path):
    result = figeval("data", "fetch", name, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: {name}: no public download is known. The paper (")
    assert line.endswith(f"With the files, put {files} in a folder and run `figeval data import {name} FOLDER`.")


def test_a_task_needing_data_with_no_download_gets_the_same_line():
    with pytest.raises(DataError, match=r"^turkish-idioms: no public download is known\. .*"
                                        r"`figeval data import turkish-idioms FOLDER`\.$"):
        require(get_source("turkish-idioms"))


def test_every_source_either_downloads_at_a_commit_or_says_where_the_data_is():
    for source in datasets().values():
        if source.downloads:
            assert source.commit and len(source.commit) == 40 and source.pinned, source.name
            assert all(source.commit in url for _, url in source.downloads), source.name
        else:
            assert source.where and not source.pinned and "no public download known" in source.pin, source.name


def test_data_list_says_where_each_source_comes_from(tmp_path: Path):
    listed = figeval("data", "list", cwd=tmp_path).stdout
    assert ("  download: none known; `figeval data import turkish-idioms FOLDER` with the files" in listed)
    assert "  source: https://github.com/AUT-NLP/PQuAD@b1724102bdb2f00a61c8ca9f81250ceff9db1872\n" in listed
    assert "pn_summary.zip (extracted: train.csv, dev.csv, test.csv)" in listed


# --- PQuAD: JSON files pinned by sha256, Train.json by its git blob id ---------------------------------------

def test_git_blob_id_is_gits_content_hash(tmp_path: Path):
    # `printf 'hello\n' | git hash-object --stdin` prints ce013625030ba8dba906f756967f9e9ca394464a
    path = tmp_path / "hello"
    path.write_bytes(b"hello\n")
    assert git_blob_id(path) == "ce013625030ba8dba906f756967f9e9ca394464a"


def without_train(source):
    return dataclasses.replace(source, files=tuple(f for f in source.files if f.name != "Train.json"))


def test_pquad_pins_match_the_published_files(shared_pquad: Path):
    # sha256 from SOURCE.md; git blob ids from `git ls-tree` of AUT-NLP/PQuAD at b1724102 (Dataset/):
    # the copies are the upstream bytes.
    assert git_blob_id(shared_pquad / "Validation.json") == "e1f5675030a792de861b1d04ec290655ed03ca2c"
    assert git_blob_id(shared_pquad / "Test.json") == "2ccefd2b76a855c3dd08ada7b77eac8a4c6d6ba9"
    source = without_train(get_source("pquad"))
    import_folder(source, shared_pquad)
    assert [(s.file.name, s.state) for s in file_statuses(source)] == [("Validation.json", FileState.OK),
                                                                       ("Test.json", FileState.OK)]


def test_pquad_import_needs_all_three_splits(shared_pquad: Path):
    # Section 3.1 samples from about 80,000 questions: train, validation and test together
    with pytest.raises(DataError, match=r"has no file 'Train.json' \(or 'Dataset/Train.json'\); pquad needs "
                                        r"'Train.json', 'Validation.json', 'Test.json'"):
        import_folder(get_source("pquad"), shared_pquad)


def test_pquad_import_finds_the_files_in_a_clone(shared_pquad: Path, tmp_path: Path):
    clone = tmp_path / "PQuAD"
    (clone / "Dataset").mkdir(parents=True)
    for name in ("Validation.json", "Test.json"):
        os.symlink(shared_pquad / name, clone / "Dataset" / name)
    source = without_train(get_source("pquad"))
    import_folder(source, clone)
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.OK]


def repository_zip(path: Path, shared_pquad: Path) -> Path:
    """A zip as GitHub's "Download ZIP" of AUT-NLP/PQuAD gives it: the tree under `PQuAD-main/`, the splits in
    its `Dataset/` (the shared copy has no Train.json)."""
    with zipfile.ZipFile(path, "w") as bundle:
        bundle.writestr("PQuAD-main/README.md", "# PQuAD\n")
        for name in ("Validation.json", "Test.json"):
            bundle.write(shared_pquad / name, f"PQuAD-main/Dataset/{name}")
    return path


def test_pquad_import_takes_the_repository_zip_or_names_what_it_lacks(shared_pquad: Path, tmp_path: Path):
    archive = repository_zip(tmp_path / "PQuAD-main.zip", shared_pquad)
    source = without_train(get_source("pquad"))
    import_folder(source, archive)
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.OK]
    # the same zip extracted: the layout under its one top folder
    with zipfile.ZipFile(archive) as bundle:
        bundle.extractall(tmp_path / "downloads")
    shutil.rmtree(dataset_dir(source))
    import_folder(source, tmp_path / "downloads")
    assert [s.state for s in file_statuses(source)] == [FileState.OK, FileState.OK]
    shutil.rmtree(dataset_dir(source))

    # the registry's pquad needs Train.json, which this zip lacks: the line names where it was looked for
    result = figeval("data", "import", "pquad", str(archive), cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.splitlines() == [
        f"error: {archive} has no 'Train.json' (looked for 'Dataset/Train.json' or 'PQuAD-main/Dataset/Train.json', "
        "where a zip of https://github.com/AUT-NLP/PQuAD as GitHub gives it holds it); pquad needs "
        "'Dataset/Train.json', 'Dataset/Validation.json', 'Dataset/Test.json'; nothing was stored."]
    # the folder holding the zip (as downloaded): the line points at the zip
    result = figeval("data", "import", "pquad", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.splitlines()[-1].endswith(
        f"; to import from the zip it holds, give the zip's path ({archive}).")
    # a file that is no zip: said so, with what to give
    (tmp_path / "notes.txt").write_text("not a zip", encoding="utf-8")
    result = figeval("data", "import", "pquad", str(tmp_path / "notes.txt"), cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.splitlines() == [
        f"error: {tmp_path / 'notes.txt'} is a file, not a folder, and not a zip of https://github.com/AUT-NLP/PQuAD "
        "(File is not a zip file); give the folder holding 'Train.json', 'Validation.json', 'Test.json', or the "
        "repository's zip."]


def test_a_file_pinned_by_git_blob_is_verified_and_its_sha256_recorded(shared_pquad: Path, tmp_path: Path):
    # Validation.json pinned the way Train.json is: by its blob id alone. The sha256 recorded on import is then
    # SOURCE.md's, 56bda77e...
    by_blob = DataFile("Validation.json", None, git_blob="e1f5675030a792de861b1d04ec290655ed03ca2c")
    source = dataclasses.replace(get_source("pquad"), files=(by_blob,))
    assert source.pinned
    import_folder(source, shared_pquad)
    assert recorded_hashes(source) == {
        "Validation.json": "56bda77e921c233236ce960c12ac6d99aa6a4a6d7706573e885842d37ab67396"}
    assert [s.state for s in file_statuses(source)] == [FileState.OK]

    changed = tmp_path / "changed"
    changed.mkdir()
    shutil.copyfile(shared_pquad / "Validation.json", changed / "Validation.json")
    with (changed / "Validation.json").open("ab") as handle:
        handle.write(b"\n")
    with pytest.raises(DataError, match=r"'Validation.json' has git blob id [0-9a-f]{40}, but pquad is pinned to "
                                        r"e1f5675030a792de861b1d04ec290655ed03ca2c; nothing was stored"):
        import_folder(source, changed)


def test_a_large_download_reports_its_progress(http_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: F811
    import figeval.data.download as download

    monkeypatch.setattr(download, "_PROGRESS_FROM_BYTES", 1)  # the real threshold is 10 MiB; this zip is about 3 MiB
    base_url, root = http_server
    rows = "".join(pn_row(f"t{i}", "متن خبری برای آزمودن دانلود بزرگ " * 3) for i in range(12_000))
    archive = root / "pn_summary.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_STORED) as bundle:  # stored: the size is the text's
        for name, text in dict(SPLITS, **{"train.csv": HEADER + rows}).items():
            bundle.writestr(f"pn_summary/{name}", text.encode("utf-8"))
    size = archive.stat().st_size
    assert 3 << 20 < size < (3 << 20) + (1 << 19)  # between 3 and 3.5 MiB: four 1-MiB reads, the last one short
    source = local_copy_of(pinned_to(archive), base_url)
    said: list[str] = []
    fetch(source, report=said.append)
    # one line per read that crosses a new tenth: after 1, 2 and 3 MiB (each about 30% further), then the end
    megabytes = f"{size / 1e6:.1f} MB"
    assert said == [f"downloading {base_url}pn_summary.zip"] + [
        f"  {k * (1 << 20) * 100 // size}% of {megabytes}" for k in (1, 2, 3)] + [f"  100% of {megabytes}"]


def test_pquad_fetch_downloads_each_json_file_at_the_pinned_commit(http_server, shared_pquad: Path):  # noqa: F811
    source = get_source("pquad")
    assert [source.url(f) for f in source.files] == [
        f"https://raw.githubusercontent.com/AUT-NLP/PQuAD/b1724102bdb2f00a61c8ca9f81250ceff9db1872/Dataset/{name}"
        for name in ("Train.json", "Validation.json", "Test.json")]  # SOURCE.md's raw URL pattern
    base_url, root = http_server
    for name in ("Validation.json", "Test.json"):
        os.symlink(shared_pquad / name, root / name)
    said: list[str] = []
    fetch(local_copy_of(without_train(source), base_url), report=said.append)
    assert said == [f"downloading {base_url}Validation.json", f"downloading {base_url}Test.json"]
