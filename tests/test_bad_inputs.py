"""A corpus of bad inputs, across every figeval command that reads a user's file or argument.

Each case either is refused in one line that names the file or field (through the command: exit 2, one
`error:` line, no traceback; or through the library loader the command calls: a `FigevalError`, which the
command prints as that line), or is accepted with the right result. The bad files are built in tmp_path from
the real fixtures (copied, then damaged the way files get damaged); the fixtures are never modified.

A case marked xfail(strict) is how figeval SHOULD behave and does not yet; its reason says what happens today.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from figeval.errors import FigevalError
from tests.command import assert_one_line_error, figeval
from tests.conftest import real_data_folder
from tests.ffe_hallu.test_tasks import write_replay
from tests.test_cli import has_row

TESTS = Path(__file__).parent
IDIOMS_TSV = TESTS / "turkish_idioms" / "fixtures" / "idioms.tsv"
ALLUSION_FIXTURES = TESTS / "persian_allusions" / "fixtures"
FINAL_QA = TESTS / "perhallueval" / "fixtures" / "final_qa.csv"

AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_non_root = pytest.mark.skipif(AS_ROOT, reason="root reads a chmod 000 file")

PERSIAN_LETTER = re.compile("[\u0600-\u06ff]")
TURKISH_LETTER = re.compile("[çğıöşüÇĞİÖŞÜ]")


def xfail(reason: str):
    return pytest.mark.xfail(reason=reason, strict=True)


# --- the good files, and the ways files get damaged ---------------------------------------------------------


def shared(name: str) -> str:
    """A real FFE-HALLU file (never committed; found as tests/real_data.py finds it, the case skipped without it)."""
    return (real_data_folder("ffe-hallu") / name).read_text(encoding="utf-8-sig")


def authentic() -> str:
    return shared("Authentic FFEs.csv")


def fake() -> str:
    return shared("Fake FFEs.csv")


def idioms() -> str:
    return IDIOMS_TSV.read_text(encoding="utf-8")


def poems() -> str:
    return (ALLUSION_FIXTURES / "PersPoems.csv").read_text(encoding="utf-8-sig")


def generated() -> str:
    return (ALLUSION_FIXTURES / "LLM-Generated.csv").read_text(encoding="utf-8-sig")


def final_qa() -> str:
    return FINAL_QA.read_text(encoding="utf-8")


def utf16(text: str) -> bytes:
    return text.encode("utf-16")


def cp1256(text: str) -> bytes:
    """Saved as Windows Arabic: bytes that are not UTF-8 (and Persian ی/ک, absent from the code page, as '?')."""
    return text.encode("cp1256", errors="replace")


def mac_roman(text: str) -> bytes:
    """UTF-8 opened as Mac Roman and saved again as UTF-8: mojibake in valid UTF-8."""
    return text.encode("utf-8").decode("mac_roman").encode("utf-8")


def question_marks(text: str, letters: re.Pattern = PERSIAN_LETTER) -> str:
    """Every letter outside the legacy code page replaced by '?'."""
    return letters.sub("?", text)


def long_text(length: int = 200_000, words: str = "حافظ شیرازی در قرن هشتم هجری در شیراز می‌زیست و ") -> str:
    """A legitimate cell longer than csv's default field limit (131,072 characters)."""
    return (words * (length // len(words) + 1))[: length - 1] + "."


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def with_line(text: str, number: int, line: str) -> str:
    """The text with line `number` (0 = header) replaced."""
    lines = lines_of(text)
    lines[number] = line
    return "\n".join(lines) + "\n"


def without_column(text: str, name: str, delimiter: str = ",") -> str:
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    index = rows[0].index(name)
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerows([r[:index] + r[index + 1:] for r in rows])
    return out.getvalue()


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def unreadable(path: Path, data: str) -> Path:
    write(path, data).chmod(0)
    return path


PAIRS = ("English Idiom,Farsi Idiom\nbreak the ice,یخ را شکستن|سر صحبت را باز کردن\n"
         "spill the beans,دست کسی را رو کردن\nkill two birds with one stone,با یک تیر دو نشان زدن\n")
PARAPHRASES = ("row,farsi_idiom,Meaning,paraphrase,verified\n"
               "1,به بار اوردن,به ثمر رسیدن,نتیجه دادن,yes\n"
               "2,چیزی نه به دار است نه به بار,هنوز مشخص نیست,هنوز روشن نیست,yes\n"
               "3,حال وهوای کسی یا کاری را نداشتن,تمایلی نداشتن,میل نداشتن,no\n")
KEPT_PASSAGES = "allusion,text,keep\nیوسف و زلیخا,متنی درباره یوسف,yes\nآتش نمرود,متنی درباره آتش,no\n"
SHEET = ("# FFE-HALLU: label each model output\n"
         "task,model,sample_id,input,reference,output,label\n"
         "ffe_generation,m,ffe-gen-001/human,به ثمر رسیدن,به بار اوردن,به بار اوردن,1\n"
         "ffe_generation,m,ffe-gen-003/human,معنی,مثل,پاسخ,0\n")
LABELS = ("task,model,sample_id,label,resolution,ann1,ann2\n"
          "ffe_generation,m,ffe-gen-001/human,correct,agreed,correct,correct\n"
          "ffe_generation,m,ffe-gen-003/human,hallucinated,agreed,hallucinated,hallucinated\n")


def replay_line(sample_id: str = "ffe-fake-001/fake-q", output: str = "Yes", **extra) -> str:
    return json.dumps({"id": sample_id, "output": output, **extra}, ensure_ascii=False)


def top(yes: float, no: float) -> dict:
    return {"top_logprobs": [{"token": "Yes", "logprob": yes}, {"token": "No", "logprob": no}]}


# --- library loaders: pure file parsing, in process ---------------------------------------------------------


def _allusions():
    from figeval.benchmarks.persian_allusions.dataset import knowledge_list, load_poems

    return knowledge_list(load_poems(ALLUSION_FIXTURES / "PersPoems.csv"))


def _loaders() -> dict[str, Callable[[Path], object]]:
    from figeval._registry import annotation_spec
    from figeval.annotation.labels import read_task_labels
    from figeval.annotation.sheets import read_annotators
    from figeval.benchmarks.ffe_hallu.dataset import (
        load_authentic,
        load_fake,
        load_translation_pairs,
        load_verified_paraphrases,
    )
    from figeval.benchmarks.perhallueval.dataset import load_items
    from figeval.benchmarks.persian_allusions.dataset import load_generated, load_poems
    from figeval.benchmarks.persian_allusions.review import load_kept_passages
    from figeval.benchmarks.turkish_idioms.dataset import load_idioms
    from figeval.models.replay import load_replay_file

    return {
        "authentic": load_authentic,
        "fake": load_fake,
        "idioms": load_idioms,
        "pairs": load_translation_pairs,
        "paraphrases": lambda path: load_verified_paraphrases(path, range(1, 201)),
        "qa": lambda path: load_items(path, "qa"),
        "summarization": lambda path: load_items(path, "summarization"),
        "poems": load_poems,
        "generated": lambda path: load_generated(path, _allusions()),
        "kept": lambda path: load_kept_passages(path, _allusions()),
        "replay": load_replay_file,
        "sheet": lambda path: read_annotators(path, annotation_spec),
        "labels": lambda path: read_task_labels(path, annotation_spec),
    }


def refused(loader: str, make: Callable[[Path], Path], message: str, *marks, id: str):
    return pytest.param(loader, make, message, marks=marks, id=id)


def accepted(loader: str, make: Callable[[Path], Path], check: Callable[[object], bool], *marks, id: str):
    return pytest.param(loader, make, check, marks=marks, id=id)


def _field_limit_reason(what: str) -> str:
    return f"{what}: today _csv.Error 'field larger than field limit (131072)' escapes as a traceback"


LOADER_CASES = [
    # FFE-HALLU Authentic FFEs.csv (read by `data import ffe-hallu` and every FFE-HALLU task)
    refused("authentic", lambda t: write(t / "a.csv", utf16(authentic())), r"a\.csv: not UTF-8", id="authentic-utf16"),
    refused("authentic", lambda t: write(t / "a.csv", cp1256(authentic())),
            r"a\.csv: not UTF-8", id="authentic-cp1256"),
    refused("authentic", lambda t: write(t / "a.csv", mac_roman(authentic())),
            r"a\.csv: column 'farsi_idiom' has no Persian letters in 200 of 200 rows", id="authentic-mac-roman"),
    refused("authentic", lambda t: write(t / "a.csv", question_marks(authentic())),
            r"a\.csv: column 'farsi_idiom' has no Persian letters in 200 of 200 rows .* re-encoding",
            id="authentic-letters-as-question-marks"),
    refused("authentic",
            lambda t: write(t / "a.csv", with_line(authentic(), 5, question_marks(lines_of(authentic())[5]))),
            r"a\.csv: column 'farsi_idiom' has no Persian letters in row\(s\) 5",
            id="authentic-one-row-as-question-marks"),
    refused("authentic", lambda t: write(t / "a.csv", with_line(authentic(), 3, '"' + lines_of(authentic())[3])),
            r"a\.csv: row 3, column 'Meaning' is empty", id="authentic-unclosed-quote-first-field"),
    refused("authentic",
            lambda t: write(t / "a.csv", with_line(authentic(), 3, lines_of(authentic())[3].replace(",", ',"', 1))),
            r"a\.csv: row 3\b",
            id="authentic-unclosed-quote-last-field"),
    refused("authentic", lambda t: write(t / "a.csv", with_line(authentic(), 0, "idiom,Meaning")),
            r"a\.csv: expected columns .* missing \['farsi_idiom'\]", id="authentic-renamed-column"),
    refused("authentic", lambda t: write(t / "a.csv", without_column(authentic(), "Meaning")),
            r"a\.csv: .* missing \['Meaning'\]", id="authentic-missing-column"),
    refused("authentic", lambda t: write(t / "a.csv", "farsi_idiom,Meaning,Meaning\n" + "".join(
                f"{line},{line.split(',', 1)[0]}\n" for line in lines_of(authentic())[1:])),
            r"a\.csv: .*'Meaning'",
            id="authentic-duplicated-column"),
    accepted("authentic", lambda t: write(t / "a.csv", "\r\n".join(lines_of(authentic())[:5] + ["", ",", " , "]
                                                                    + lines_of(authentic())[5:]) + "\r\n\r\n"),
             lambda items: len(items) == 200 and items[4].expression == lines_of(authentic())[5].split(",")[0],
             id="authentic-blank-rows-and-crlf-load"),
    refused("authentic", lambda t: write(t / "a.csv", authentic() + lines_of(authentic())[7] + "\n"),
            r"a\.csv: 1 expression\(s\) in column 'farsi_idiom' appear more than once \(rows 7, 201\)",
            id="authentic-duplicate-row"),
    refused("authentic", lambda t: write(t / "a.csv", authentic() + lines_of(authentic())[7].replace(" ", "  ", 1)
                                         .replace(",", ",another meaning ", 1) + "\n"),
            r"appear more than once \(rows 7, 201\)", id="authentic-duplicate-expression-other-spacing"),
    refused("authentic", lambda t: t, r"cannot be read \(Is a directory\)", id="authentic-directory"),
    refused("authentic", lambda t: t / "nosuch.csv",
            r"nosuch\.csv: cannot be read \(No such file", id="authentic-missing"),
    refused("authentic", lambda t: unreadable(t / "a.csv", authentic()), r"a\.csv: cannot be read \(Permission denied",
            needs_non_root, id="authentic-unreadable"),
    accepted("authentic", lambda t: write(t / "a.csv", with_line(authentic(), 1, f"به بار اوردن,{long_text()}")),
             lambda items: len(items) == 200 and len(items[0].meaning) == 200_000,
             id="authentic-200k-cell-loads"),
    refused("authentic", lambda t: write(t / "a.csv", fake()),
            r"a\.csv: expected columns \['farsi_idiom', 'Meaning'\], found \['Fake Idiom'",
            id="authentic-given-fake-file"),
    refused("authentic", lambda t: write(t / "a.csv", "farsi_idiom,Meaning\n"),
            r"a\.csv: has a header but no data rows",
            id="authentic-header-only"),
    refused("authentic", lambda t: write(t / "a.csv", ""),
            r"a\.csv: expected columns .* found \[\]", id="authentic-empty"),
    # FFE-HALLU Fake FFEs.csv
    refused("fake",
            lambda t: write(t / "f.csv", with_line(fake(), 2, lines_of(fake())[2].rsplit(",", 1)[0] + ",Nonsense")),
            r"f\.csv: row 2, column 'Category' is 'Nonsense'", id="fake-unknown-category"),
    refused("fake", lambda t: write(t / "f.csv", with_line(fake(), 2, lines_of(fake())[2] + ",extra")),
            r"f\.csv: row 2 has 4 fields but the header has 3", id="fake-unquoted-comma"),
    refused("fake", lambda t: write(t / "f.csv", with_line(fake(), 2, lines_of(fake())[2].rsplit(",", 1)[0] + ",")),
            r"f\.csv: row 2, column 'Category' is empty", id="fake-empty-category"),
    refused("fake", lambda t: write(t / "f.csv", authentic()),
            r"f\.csv: .* missing \['Fake Idiom', 'Source Idiom', 'Category'\]",
            id="fake-given-authentic-file"),
    refused("fake", lambda t: write(t / "f.csv", utf16(fake())), r"f\.csv: not UTF-8", id="fake-utf16"),
    # Turkish idioms.tsv (`data import turkish-idioms`, tr_idiom_*)
    refused("idioms", lambda t: write(t / "i.tsv", utf16(idioms())), r"i\.tsv: not UTF-8", id="idioms-utf16"),
    refused("idioms", lambda t: write(t / "i.tsv", idioms().encode("cp1254")),
            r"i\.tsv: not UTF-8", id="idioms-cp1254"),
    refused("idioms", lambda t: write(t / "i.tsv", mac_roman(idioms())), r"i\.tsv: .*'idiom'",
            id="idioms-mac-roman"),
    refused("idioms", lambda t: write(t / "i.tsv", question_marks(idioms(), TURKISH_LETTER)), r"i\.tsv: .*'idiom'",
            id="idioms-letters-as-question-marks"),
    refused("idioms", lambda t: write(t / "i.tsv", idioms().replace("\t120\n", "\t-5\n")),
            r"i\.tsv: row 3, column 'frequency' is '-5'", id="idioms-negative-frequency"),
    refused("idioms", lambda t: write(t / "i.tsv", idioms().replace("\t120\n", "\tnan\n")),
            r"i\.tsv: row 3, column 'frequency' is 'nan'", id="idioms-nan-frequency"),
    refused("idioms", lambda t: write(t / "i.tsv", idioms().replace("\t120\n", "\tinf\n")),
            r"i\.tsv: row 3, column 'frequency' is 'inf'",
            id="idioms-inf-frequency"),
    refused("idioms", lambda t: write(t / "i.tsv", idioms() + lines_of(idioms())[5].replace("İçi", "içi") + "\n"),
            r"i\.tsv: 1 expression\(s\) in column 'idiom' appear more than once \(rows 5, 7\)",
            id="idioms-duplicate-in-other-case"),
    refused("idioms", lambda t: write(t / "i.tsv", idioms().replace("\t", ",")), r"i\.tsv: row \d+ has \d+ fields",
            id="idioms-commas-instead-of-tabs"),
    refused("idioms", lambda t: write(t / "i.tsv", without_column(idioms(), "similar", "\t")),
            r"i\.tsv: .* missing \['similar'\]", id="idioms-missing-column"),
    refused("idioms", lambda t: write(t / "i.tsv", idioms().replace("Hediyeyi görünce yüzünü buruşturdu.", "")),
            r"i\.tsv: row 3, column 'similar' is empty", id="idioms-empty-required-cell"),
    refused("idioms",
            lambda t: write(t / "i.tsv", idioms().replace("Sınavı kazandığını duyunca etekleri", '"Sınavı', 1)),
            r"i\.tsv: row 2, column 'paraphrase' is empty", id="idioms-unclosed-quote"),
    accepted("idioms",
             lambda t: write(t / "i.tsv", idioms().replace("çok sevinmek", long_text(words="çok sevinmek ve "))),
             lambda items: len(items) == 6, id="idioms-200k-cell-loads"),
    refused("idioms", lambda t: write(t / "i.tsv", authentic()),
            r"i\.tsv: expected columns .* found \['farsi_idiom', 'Meaning'\]",
            id="idioms-given-ffe-file"),
    accepted("idioms", lambda t: write(t / "i.tsv", without_column(idioms(), "frequency", "\t")),
             lambda items: len(items) == 6 and all(item.frequency is None for item in items),
             id="idioms-without-optional-frequency-load"),
    refused("idioms", lambda t: t, r"cannot be read \(Is a directory\)", id="idioms-directory"),
    # ffe_translation -T pairs=FILE
    refused("pairs", lambda t: write(t / "p.csv", utf16(PAIRS)), r"p\.csv: not UTF-8", id="pairs-utf16"),
    refused("pairs", lambda t: write(t / "p.csv", question_marks(PAIRS)),
            r"p\.csv: column 'Farsi Idiom' has no Persian letters in 3 of 3 rows",
            id="pairs-letters-as-question-marks"),
    refused("pairs", lambda t: write(t / "p.csv", PERSIAN_LETTER.sub("_", PAIRS)),
            r"p\.csv: column 'Farsi Idiom' has no Persian letters", id="pairs-letters-as-underscores-like-upstream"),
    refused("pairs", lambda t: write(t / "p.csv", PAIRS + "break the ice,یخ شکستن\n"),
            r"p\.csv: 1 expression\(s\) in column 'English Idiom' appear more than once \(rows 1, 4\)",
            id="pairs-duplicate-english"),
    refused("pairs", lambda t: write(t / "p.csv", PAIRS + "Break the Ice,یخ شکستن\n"), r"p\.csv: .*rows 1, 4",
            id="pairs-duplicate-english-other-case"),
    refused("pairs", lambda t: write(t / "p.csv", PAIRS.replace(",یخ", ',"یخ')), r"p\.csv: row 1\b",
            id="pairs-unclosed-quote"),
    accepted("pairs", lambda t: write(t / "p.csv", "Farsi Idiom,English Idiom\n" + "".join(
                 ",".join(reversed(line.split(","))) + "\n" for line in lines_of(PAIRS)[1:])),
             lambda pairs: [p.english for p in pairs] == ["break the ice", "spill the beans",
                                                          "kill two birds with one stone"]
             and pairs[0].persian == ("یخ را شکستن", "سر صحبت را باز کردن"), id="pairs-columns-in-other-order-load"),
    refused("pairs", lambda t: write(t / "p.csv", authentic()),
            r"p\.csv: .* missing \['English Idiom', 'Farsi Idiom'\]",
            id="pairs-given-authentic-file"),
    refused("pairs", lambda t: write(t / "p.csv", PAIRS.replace("یخ را شکستن|سر صحبت را باز کردن", "|")),
            r"p\.csv: column 'Farsi Idiom' has no Persian letters in row\(s\) 1", id="pairs-empty-equivalents"),
    # ffe_generation -T meaning=paraphrased -T paraphrases=FILE
    refused("paraphrases", lambda t: write(t / "pp.csv", PARAPHRASES.replace("\n2,", "\nabc,")),
            r"pp\.csv: row 2, column 'row' is 'abc', not a row number", id="paraphrases-row-not-a-number"),
    refused("paraphrases", lambda t: write(t / "pp.csv", PARAPHRASES.replace("\n2,", "\n-1,")),
            r"pp\.csv: row 2, column 'row'",
            id="paraphrases-row-negative"),
    refused("paraphrases", lambda t: write(t / "pp.csv", PARAPHRASES.replace("\n2,", "\n999,")),
            r"pp\.csv: row 2, column 'row'",
            id="paraphrases-row-out-of-range"),
    refused("paraphrases", lambda t: write(t / "pp.csv", PARAPHRASES.replace("\n2,", "\n1,")), r"pp\.csv: .*row",
            id="paraphrases-duplicate-row"),
    refused("paraphrases", lambda t: write(t / "pp.csv", without_column(PARAPHRASES, "verified")),
            r"pp\.csv: .* missing \['verified'\]", id="paraphrases-missing-verified-column"),
    refused("paraphrases", lambda t: write(t / "pp.csv", PAIRS), r"pp\.csv: .* missing \['row', 'farsi_idiom'",
            id="paraphrases-given-pairs-file"),
    refused("paraphrases", lambda t: write(t / "pp.csv", PARAPHRASES.replace("نتیجه دادن", "????? ????")),
            r"pp\.csv: column 'paraphrase' has no Persian letters in row\(s\) 1",
            id="paraphrases-letters-as-question-marks"),
    # a mark other than yes/no (here "maybe" in data row 1) is not silently "no"
    refused("paraphrases", lambda t: write(t / "pp.csv", PARAPHRASES.replace(",yes\n2", ",maybe\n2")),
            r"pp\.csv: row 1, column 'verified' is 'maybe'; use yes or no", id="paraphrases-verified-not-yes-or-no"),
    # an empty mark is not yet verified: row 1 (empty) and row 3 (no) are dropped, row 2 kept
    accepted("paraphrases", lambda t: write(t / "pp.csv", PARAPHRASES.replace(",yes\n2", ",\n2")),
             lambda result: result == ({2: "هنوز روشن نیست"}, 2), id="paraphrases-unverified-rows-dropped-and-counted"),
    # PerHalluEval -T data=FILE
    refused("qa", lambda t: write(t / "q.csv", final_qa().replace(",شیراز,اصفهان,", ",شیراز,شیراز,")),
            r"q\.csv: row 1\b.*hallucinated",
            id="qa-identical-versions"),
    refused("qa", lambda t: write(t / "q.csv", final_qa().replace("q2,", "q1,")),
            r"q\.csv: 1 expression\(s\) in column 'id' appear more than once \(rows 1, 2\)", id="qa-duplicate-id"),
    refused("qa", lambda t: write(t / "q.csv", final_qa().replace("q2,", " q1 ,")), r"q\.csv: .* \(rows 1, 2\)",
            id="qa-duplicate-id-with-spaces"),
    refused("qa", lambda t: write(t / "q.csv", final_qa() + lines_of(final_qa())[3] + "\n"),
            r"q\.csv: .* \(rows 3, 7\)",
            id="qa-duplicate-row"),
    refused("qa", lambda t: write(t / "q.csv", final_qa().replace("model-a,0.41,1", "model-a,0.41,2")),
            r"q\.csv: row 1, column 'persian_specific' is '2'; use 1 or 0", id="qa-persian-specific-out-of-range"),
    refused("qa", lambda t: write(t / "q.csv", final_qa().replace("model-a,0.41,1", "model-a,0.41,-1")),
            r"q\.csv: row 1, column 'persian_specific' is '-1'", id="qa-persian-specific-negative"),
    refused("qa", lambda t: write(t / "q.csv", final_qa().replace("حافظ در کدام شهر می‌زیست؟", "")),
            r"q\.csv: row 1, column 'question' is empty", id="qa-empty-question"),
    refused("qa", lambda t: write(t / "q.csv", without_column(final_qa(), "question")),
            r"q\.csv: .* missing \['question'\]",
            id="qa-missing-question-column"),
    refused("qa", lambda t: write(t / "q.csv",
                                  with_line(final_qa(), 0, lines_of(final_qa())[0].replace("correct", "answer"))),
            r"q\.csv: .* missing \['correct'\]", id="qa-renamed-column"),
    refused("summarization", lambda t: write(t / "q.csv", final_qa()), r"q\.csv: .*question",
            id="qa-file-given-to-summarization"),
    refused("qa", lambda t: write(t / "s.csv", "".join(
                f"{line.split(',')[0]},pn-{i},{line.split(',')[2]},,{line.split(',')[2]},خبر دیگر,m,0.1,\n" if i else
                line + "\n" for i, line in enumerate(lines_of(final_qa())))),
            r"s\.csv: row 1, column 'question' is empty; a QA item needs its question",
            id="summarization-file-given-to-qa"),
    refused("qa", lambda t: write(t / "q.csv", final_qa().replace("model-a,0.41,1", 'model-a,0.41,"1')),
            r"q\.csv: row 1 opens a quote .* never closed", id="qa-unclosed-quote-last-field"),
    refused("qa", lambda t: write(t / "q.csv", final_qa().replace(",حافظ شیرازی", ',"حافظ شیرازی')),
            r"q\.csv: row 1, column 'correct' is empty", id="qa-unclosed-quote-in-context"),
    accepted("qa", lambda t: write(t / "q.csv",
                                   final_qa().replace("حافظ شیرازی در قرن هشتم هجری در شیراز می‌زیست.", long_text())),
             lambda items: len(items) == 6 and len(items[0].context) == 200_000,
             id="qa-200k-context-loads"),
    refused("qa", lambda t: write(t / "q.csv", utf16(final_qa())), r"q\.csv: not UTF-8", id="qa-utf16"),
    refused("qa", lambda t: write(t / "q.csv", cp1256(final_qa())), r"q\.csv: not UTF-8", id="qa-cp1256"),
    refused("qa", lambda t: write(t / "q.csv", mac_roman(final_qa())),
            r"q\.csv: column 'context' has no Persian letters",
            id="qa-mac-roman"),
    refused("qa", lambda t: write(t / "q.csv", question_marks(final_qa())),
            r"q\.csv: column 'context' has no Persian letters in 6 of 6 rows", id="qa-letters-as-question-marks"),
    accepted("qa", lambda t: write(t / "q.tsv", final_qa().replace(",", "\t")),
             lambda items: [item.id for item in items] == ["q1", "q2", "q3", "q4", "q5", "q6"],
             id="qa-tab-separated-loads"),
    accepted("qa", lambda t: write(t / "q.csv", final_qa().replace("\nq3", "\n\n,,,,,,,,\nq3")),
             lambda items: len(items) == 6 and items[2].id == "q3", id="qa-blank-rows-load"),
    refused("qa", lambda t: t, r"cannot be read \(Is a directory\)", id="qa-directory"),
    refused("qa", lambda t: write(t / "q.csv", lines_of(final_qa())[0] + "\n"),
            r"q\.csv: has a header but no data rows",
            id="qa-header-only"),
    # Persian allusions (`data import persian-allusions`, allusion_* -T generated=FILE)
    refused("poems", lambda t: write(t / "pp.csv", poems().replace("quranic", "cosmic", 1)),
            r"pp\.csv: row 1, column 'themes' has 'cosmic'", id="poems-unknown-theme"),
    refused("poems", lambda t: write(t / "pp.csv", poems() + lines_of(poems())[1] + "\n"), r"pp\.csv: .*rows? 1\b",
            id="poems-duplicate-row"),
    refused("poems", lambda t: write(t / "pp.csv", utf16(poems())), r"pp\.csv: not UTF-8", id="poems-utf16"),
    refused("poems", lambda t: write(t / "pp.csv", mac_roman(poems())),
            r"pp\.csv: column 'couplet' has no Persian letters",
            id="poems-mac-roman"),
    refused("poems", lambda t: write(t / "pp.csv", generated()), r"pp\.csv: .* missing \['poet', 'themes'",
            id="poems-given-generated-file"),
    refused("generated", lambda t: write(t / "g.csv", generated().replace("آتش نمرود", "اصحاب کهف")),
            r"g\.csv: row 2 alludes to 'اصحاب کهف', which is not an allusion of PersPoems\.csv",
            id="generated-unknown-allusion"),
    refused("generated", lambda t: write(t / "g.csv", poems()), r"g\.csv: .* missing \['text'\]",
            id="generated-given-poems-file"),
    refused("kept", lambda t: write(t / "k.csv", KEPT_PASSAGES.replace("yes", "no")),
            r"k\.csv: no row is marked keep=yes",
            id="kept-nothing-kept"),
    refused("kept", lambda t: write(t / "k.csv", KEPT_PASSAGES.replace("یوسف و زلیخا", "اصحاب کهف")),
            r"k\.csv: row 1 is about 'اصحاب کهف', not in the knowledge list", id="kept-unknown-allusion"),
    refused("kept", lambda t: write(t / "k.csv", generated()), r"k\.csv: .* missing \['keep'\]",
            id="kept-given-upstream-generated-file"),
    refused("kept", lambda t: write(t / "k.csv", KEPT_PASSAGES.replace("متنی درباره یوسف", "???? ?????? ????")),
            r"k\.csv: column 'text' has no Persian letters in row\(s\) 1", id="kept-letters-as-question-marks"),
    refused("kept", lambda t: t, r"cannot be read \(Is a directory\)", id="kept-directory"),
    # replay model files (`--model replay/FILE.jsonl`): they carry top_logprobs for logprob answers
    refused("replay", lambda t: write(t / "r.jsonl", replay_line(**top(math.nan, -0.1)) + "\n"),
            r"r\.jsonl, line 1: .*logprob",
            id="replay-nan-logprob"),
    refused("replay", lambda t: write(t / "r.jsonl", replay_line(**top(math.inf, -0.1)) + "\n"),
            r"r\.jsonl, line 1: .*logprob",
            id="replay-infinite-logprob"),
    refused("replay", lambda t: write(t / "r.jsonl", replay_line(**top(2.0, -0.1)) + "\n"),
            r"r\.jsonl, line 1: .*logprob",
            id="replay-positive-logprob"),
    accepted("replay", lambda t: write(t / "r.jsonl", replay_line(**top(-math.inf, -0.1)) + "\n"),
             lambda records: records["ffe-fake-001/fake-q"].top_logprobs[0].logprob == -math.inf,
             id="replay-minus-infinity-logprob-is-probability-zero"),
    refused("replay", lambda t: write(t / "r.jsonl", replay_line(top_logprobs=[{"token": 5, "logprob": -1}]) + "\n"),
            r"r\.jsonl, line 1: top_logprobs must be a list", id="replay-token-not-a-string"),
    refused("replay", lambda t: write(t / "r.jsonl", replay_line(top_logprobs={"token": "Yes", "logprob": -1}) + "\n"),
            r"r\.jsonl, line 1: top_logprobs must be a list", id="replay-top-logprobs-not-a-list"),
    refused("replay", lambda t: write(t / "r.jsonl", replay_line() + "\n" + '{"id": "x", "output": "Yes"\n'),
            r"r\.jsonl, line 2: not valid JSON", id="replay-invalid-json"),
    refused("replay", lambda t: write(t / "r.jsonl", '{"id": 1, "output": "Yes"}\n'), r"r\.jsonl, line 1: expected",
            id="replay-id-not-a-string"),
    refused("replay", lambda t: write(t / "r.jsonl", '{"id": "a", "output": null}\n'), r"r\.jsonl, line 1: expected",
            id="replay-output-null"),
    refused("replay", lambda t: write(t / "r.jsonl", replay_line() + "\n" + replay_line(output="No") + "\n"),
            r"r\.jsonl, line 2: sample id 'ffe-fake-001/fake-q' already appeared on line 1", id="replay-duplicate-id"),
    refused("replay", lambda t: write(t / "r.jsonl", "\n\n"),
            r"replay file r\.jsonl has no outputs", id="replay-empty"),
    refused("replay", lambda t: write(t / "r.jsonl", utf16(replay_line(output="بله") + "\n")), r"r\.jsonl",
            id="replay-utf16"),
    refused("replay", lambda t: write(t / "r.jsonl", cp1256(replay_line(output="بله") + "\n")), r"r\.jsonl",
            id="replay-cp1256"),
    refused("replay", lambda t: write(t / "r.csv", "id,output\nffe-fake-001/fake-q,Yes\n"),
            r"r\.csv, line 1: not valid JSON",
            id="replay-csv-file"),
    refused("replay", lambda t: write(t / "r.jsonl", json.dumps([{"id": "a", "output": "Yes"}]) + "\n"),
            r"r\.jsonl, line 1: expected", id="replay-json-array"),
    refused("replay", lambda t: t, r"replay: no file at", id="replay-directory"),
    refused("replay", lambda t: unreadable(t / "r.jsonl", replay_line() + "\n"), r"r\.jsonl",
            needs_non_root, id="replay-unreadable"),
    accepted("replay", lambda t: write(t / "r.jsonl", "\ufeff" + replay_line() + "\n\n   \n" + replay_line("b") + "\n"),
             lambda records: list(records) == ["ffe-fake-001/fake-q", "b"], id="replay-bom-and-blank-lines-load"),
    # annotation sheets (`annotate import`)
    refused("sheet", lambda t: write(t / "s.csv", utf16(SHEET)),
            r"s\.csv: not UTF-8 \(byte \d+\); save the sheet as CSV UTF-8", id="sheet-utf16"),
    refused("sheet", lambda t: write(t / "s.csv", cp1256(SHEET)),
            r"s\.csv: not UTF-8 \(byte \d+\); save the sheet as CSV UTF-8", id="sheet-cp1256"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET.replace(",0\n", ",3\n")),
            r"s\.csv: row 4 \(sample 'ffe-gen-003/human' of m\) has label '3'", id="sheet-label-out-of-range"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET.replace(",0\n", ",-1\n")),
            r"s\.csv: row 4 \(sample 'ffe-gen-003/human' of m\) has label '-1'",
            id="sheet-label-negative"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET.replace(",0\n", ",1.0\n")),
            r"s\.csv: row 4 .* has label '1\.0'",
            id="sheet-label-not-a-code"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET.replace(",label", ",verdict")),
            r"s\.csv: .*missing columns \['label'\]",
            id="sheet-renamed-label-column"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET.replace(",label", ",label,label").replace(",1\n", ",1,0\n")
                                     .replace(",0\n", ",0,1\n")), r"s\.csv: row 3 does not have one cell per column",
            id="sheet-duplicated-label-column"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET.replace("ffe_generation", "ffe_detection")),
            r"task 'ffe_detection' has no human-label scheme", id="sheet-of-a-task-without-labels"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET.replace("ffe_generation,m,ffe-gen-003/human",
                                                                "ffe_translation,m,ffe-gen-003/human")),
            r"s\.csv: rows of 2 tasks", id="sheet-rows-of-two-tasks"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET + SHEET.splitlines()[2] + "\n"),
            r"s\.csv: row 5 repeats sample 'ffe-gen-001/human' of m", id="sheet-duplicate-row"),
    refused("sheet", lambda t: write(t / "s.csv", SHEET.replace(",معنی,", ',"معنی,')),
            r"s\.csv: row 4 does not have one cell",
            id="sheet-unclosed-quote"),
    accepted("sheet", lambda t: write(t / "s.csv", SHEET.replace(",پاسخ,", f",{long_text()},")),
             lambda result: len(result[1][""]) == 2,
             id="sheet-200k-output-loads"),
    accepted("sheet", lambda t: write(t / "s.csv", question_marks(SHEET)),
             lambda result: [label.value for label in result[1][""].values()] == ["correct", "hallucinated"],
             id="sheet-texts-as-question-marks-labels-still-read"),
    accepted("sheet", lambda t: write(t / "s.csv", SHEET + ",,,,,,\n"),
             lambda result: len(result[1][""]) == 2,
             id="sheet-blank-row-skipped"),
    refused("sheet", lambda t: write(t / "s.csv", "task,model,sample_id,input,reference,output,label\n"),
            r"s\.csv: no rows", id="sheet-header-only"),
    refused("sheet", lambda t: t,
            r"a folder, not a sheet \(Is a directory\); give the sheet `figeval annotate export` wrote",
            id="sheet-directory"),
    refused("sheet", lambda t: unreadable(t / "s.csv", SHEET), r"s\.csv: cannot be read",
            needs_non_root, id="sheet-unreadable"),
    refused("sheet", lambda t: write(t / "s.json", "{not json"), r"s\.json: not a Label Studio JSON export",
            id="label-studio-invalid-json"),
    refused("sheet", lambda t: write(t / "s.json", '{"tasks": []}'), r"s\.json: not a Label Studio JSON export",
            id="label-studio-not-a-list"),
    refused("sheet", lambda t: write(t / "s.json", json.dumps([{"data": "ffe_generation"}])), r"s\.json",
            id="label-studio-data-not-an-object"),
    # resolved labels files (`annotate rates`, `judge agreement --human`, `report --human`, -T manual_labels)
    refused("labels",
            lambda t: write(t / "l.csv",
                            LABELS + "ffe_generation,m,ffe-gen-001/human,incorrect,agreed,incorrect,incorrect\n"),
            r"l\.csv: row 4\b.*ffe-gen-001/human",
            id="labels-duplicate-row"),
    refused("labels", lambda t: write(t / "l.csv", LABELS.replace("correct,agreed", "7,agreed", 1)), r"l\.csv: row 2\b",
            id="labels-label-out-of-range"),
    refused("labels",
            lambda t: write(t / "l.csv", LABELS.replace("agreed,correct", "agreed,-1", 1)), r"l\.csv: row 2\b",
            id="labels-annotator-label-negative"),
    refused("labels", lambda t: write(t / "l.csv", LABELS + "ffe_generation,m,ffe-gen-004/human\n"), r"l\.csv: row 4\b",
            id="labels-short-row"),
    refused("labels", lambda t: write(t / "l.csv", LABELS + ",,,,,,\n"), r"l\.csv",
            id="labels-blank-row"),
    refused("labels", lambda t: write(t / "l.csv", LABELS.replace("agreed", "majority", 1)),
            r"l\.csv: row 2 has resolution 'majority'", id="labels-unknown-resolution"),
    refused("labels", lambda t: write(t / "l.csv", SHEET), r"l\.csv: not a labels file from `figeval annotate import`",
            id="labels-given-a-sheet"),
    refused("labels", lambda t: write(t / "l.csv", utf16(LABELS)),
            r"l\.csv: not UTF-8 \(byte \d+\); save the labels file as CSV UTF-8", id="labels-utf16"),
    refused("labels", lambda t: write(t / "l.csv", LABELS.replace("ffe_generation,m,ffe-gen-003/human",
                                                                  "ffe_translation,m,ffe-gen-003/human")),
            r"l\.csv holds labels of 2 tasks", id="labels-of-two-tasks"),
    refused("labels", lambda t: write(t / "l.csv", LABELS.replace("ffe_generation", "ffe_detection")),
            r"task 'ffe_detection' has no human-label scheme", id="labels-of-a-task-without-labels"),
    refused("labels", lambda t: t,
            r"a folder, not a labels file \(Is a directory\); give the labels file `figeval annotate import` wrote",
            id="labels-directory"),
    refused("labels", lambda t: unreadable(t / "l.csv", LABELS), r"l\.csv: cannot be read", needs_non_root,
            id="labels-unreadable"),
]


@pytest.mark.parametrize("loader, make, expected", LOADER_CASES)
def test_loader(loader: str, make: Callable[[Path], Path], expected, tmp_path: Path):
    path = make(tmp_path)
    read = _loaders()[loader]
    if isinstance(expected, str):
        with pytest.raises(FigevalError, match=expected) as error:
            read(path)
        assert "\n" not in str(error.value)  # printed as one line
    else:
        assert expected(read(path))


# --- task arguments (-T), checked when the task is made: what `figeval run` calls, in process -----------------


def _labels_of(task: str, label: str, annotator: str | None = None) -> Callable[[Path], str]:
    def make(tmp: Path) -> str:
        text = (f"task,model,sample_id,label,resolution,ann1\n"
                f"{task},m,tr-idiom-001/figurative,{label},single,{annotator or label}\n")
        return str(write(tmp / "labels.csv", text))

    return make


def _qa_with(old: str, new: str) -> Callable[[Path], str]:
    return lambda tmp: str(write(tmp / "q.csv", final_qa().replace(old, new)))


TASK_ARGUMENT_CASES = [
    # (task, the data it needs, -T arguments: value or a maker of a file in tmp, refusal, marks)
    ("ffe_detection", "ffe", {"controls": "2"}, r"-T controls='2' must be true or false", ()),
    ("ffe_detection", "ffe", {"answer_mode": "1"}, r"answer_mode must be one of \['generate', 'logprob', 'auto'\]", ()),
    ("ffe_generation", "ffe", {"meaning": "paraphrased"}, r"meaning=paraphrased needs -T paraphrases=PATH", ()),
    ("ffe_generation", "ffe", {"paraphrases": lambda t: str(write(t / "pp.csv", PARAPHRASES))}, r"paraphrases",
     ()),
    ("ffe_generation", "ffe", {"judge_prompt": "strict"}, r"judge_prompt must be one of", ()),
    ("ffe_translation", "ffe", {"pairs": lambda t: str(t)}, r"cannot be read \(Is a directory\)", ()),
    ("tr_idiom_detection", "tr", {"prompt_lang": "de"}, r"prompt_lang must be one of \['en', 'tr'\], not 'de'", ()),
    ("tr_idiom_detection", "tr", {"frequency_bands": "coarse"}, r"frequency_bands must be one of", ()),
    ("tr_idiom_detection", "tr", {"balanced": "2"}, r"-T balanced='2' must be true or false", ()),
    ("tr_idiom_entailment", "tr", {"yes_no_entailment": "sometimes"}, r"-T yes_no_entailment='sometimes'", ()),
    ("tr_idiom_detection", "tr", {"manual_labels": _labels_of("ffe_generation", "correct")},
     r"manual_labels are for task ffe_generation, not tr_idiom_detection", ()),
    ("tr_idiom_entailment", "tr", {"manual_labels": _labels_of("tr_idiom_detection", "yes")},
     r"manual_labels are for task tr_idiom_detection, not tr_idiom_entailment", ()),
    ("tr_idiom_detection", "tr", {"manual_labels": lambda t: str(t / "nosuch.csv")},
     r"nosuch\.csv: no such file; give the labels file `figeval annotate import` wrote", ()),
    ("tr_idiom_detection", "tr",
     {"manual_labels": _labels_of("tr_idiom_detection", "entailment", "yes")}, r"labels\.csv: row 2",
     ()),
    ("allusion_mc", "allusions", {"dataset": "poems"}, r"dataset must be one of \['perspoems', 'generated'\]", ()),
    ("allusion_mc", "allusions", {"seed": "1e3"}, r"-T seed='1e3' must be a whole number", ()),
    ("allusion_open", "allusions", {"judge_mode": "maybe"}, r"judge_mode must be one of", ()),
    ("allusion_knowledge", "allusions", {"prompt_lang": "tr"}, r"prompt_lang must be one of \['en', 'fa'\]", ()),
    ("allusion_mc", "allusions",
     {"dataset": "generated", "generated": lambda t: str(ALLUSION_FIXTURES / "LLM-Generated.csv")},
     r"LLM-Generated\.csv: .* missing \['keep'\]", ()),
    ("allusion_mc", "allusions", {"generated": lambda t: str(write(t / "k.csv", KEPT_PASSAGES))}, r"generated",
     ()),
    ("perhallueval_qa", None, {}, r"perhallueval_qa needs -T data=PATH", ()),
    ("perhallueval_qa", None, {"data": str(FINAL_QA), "unparsed": "as_label:Y"}, r"unparsed policy must be one of", ()),
    ("perhallueval_qa", None, {"data": str(FINAL_QA), "answer_mode": "guess"}, r"answer_mode must be one of", ()),
    ("perhallueval_summarization", None, {"data": str(FINAL_QA)}, r"final_qa\.csv: .*question",
     ()),
    ("perhallueval_qa", None, {"data": _qa_with(",شیراز,اصفهان,", ",شیراز,شیراز,")}, r"q\.csv: row 1\b",
     ()),
]


@pytest.fixture
def datasets(request: pytest.FixtureRequest):
    """Import what a case needs into the test's data dir: 'ffe' (the real files), 'tr' and 'allusions' (fixtures)."""
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    def need(*names: str | None) -> None:
        for name in names:
            if name == "ffe":
                request.getfixturevalue("ffe_hallu_imported")
            elif name == "tr":
                import_folder(get_source("turkish-idioms"), IDIOMS_TSV.parent)
            elif name == "allusions":
                import_folder(get_source("persian-allusions"), ALLUSION_FIXTURES)

    return need


@pytest.mark.parametrize(
    "task, data, args, message",
    [pytest.param(task, data, args, message, marks=marks, id=f"{task}-{'-'.join(args) or 'no-args'}-{i}")
     for i, (task, data, args, message, marks) in enumerate(TASK_ARGUMENT_CASES)],
)
def test_task_argument(task: str, data: str | None, args: dict, message: str, datasets, tmp_path: Path):
    from tests.command import make_task

    datasets(data)
    given = {name: value(tmp_path) if callable(value) else value for name, value in args.items()}
    with pytest.raises(FigevalError, match=message) as error:
        make_task(task, given)
    assert "\n" not in str(error.value)


# --- the commands, as a user runs them (through their entry point, in this process: tests/command.py) ----------------


GENERATION_OUTPUTS = {"ffe-gen-001/human": "به بار اوردن", "ffe-gen-003/human": "پا پس کشیدن",
                      "ffe-gen-004/human": "دل پری از کسی داشتن",
                      "ffe-gen-005/human": "گربه را دم دروازه کشتن", "ffe-gen-006/human": "«سیب‌زمینی را کباب کردن»"}
# the judge labels every output (Table 6), 001 beside its reference rule too
JUDGE_LABELS = {"ffe-gen-001/human": 1, "ffe-gen-003/human": 2, "ffe-gen-004/human": 1,
                "ffe-gen-005/human": 0, "ffe-gen-006/human": 0}
# what two annotators resolved: 006 "correct" where the judge said hallucinated
HUMAN_LABELS = {"ffe-gen-001/human": "correct", "ffe-gen-003/human": "incorrect", "ffe-gen-004/human": "correct",
                "ffe-gen-005/human": "hallucinated", "ffe-gen-006/human": "correct"}


@dataclass(frozen=True)
class Annotated:
    log: Path
    """A judged ffe_generation run of 5 answers: 001 matches its reference (the judge labels it beside the rule),
    003-006 are judged."""
    model: str
    detection_log: Path
    """An ffe_detection run (a task without human labels)."""
    sheet: Path
    """The sheet `annotate export` writes for `log`, label column empty."""
    labels: Path
    """Two annotators' resolved labels of `log`'s answers (HUMAN_LABELS)."""

    def labels_text(self) -> str:
        return self.labels.read_text(encoding="utf-8-sig")

    def filled_sheet(self, labels: dict[str, str]) -> str:
        """The sheet as an annotator saves it, a label typed in each row."""
        lines = self.sheet.read_text(encoding="utf-8-sig").splitlines()
        comments = [line for line in lines if line.startswith("#")]
        rows = list(csv.DictReader([line for line in lines if not line.startswith("#")]))
        out = io.StringIO()
        out.write("\n".join(comments) + "\n")
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows([{**row, "label": labels[row["sample_id"]]} for row in rows])
        return out.getvalue()


@pytest.fixture(scope="module")
def annotated(tmp_path_factory: pytest.TempPathFactory) -> Annotated:
    ffe_hallu = real_data_folder("ffe-hallu")
    from inspect_ai import eval as inspect_eval

    from figeval._registry import annotation_spec
    from figeval.annotation.sheets import items_from_log, write_sheet
    from figeval.benchmarks.ffe_hallu.tasks import ffe_detection, ffe_generation
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    base = tmp_path_factory.mktemp("annotated")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FIGEVAL_DATA_DIR", str(base / "data"))
        patch.setenv("INSPECT_CACHE_DIR", str(base / "cache"))
        import_folder(get_source("ffe-hallu"), ffe_hallu)
        outputs = write_replay(base / "outputs.jsonl", GENERATION_OUTPUTS)
        judge = write_replay(base / "judge.jsonl",
                             {sid: json.dumps({"label": label}) for sid, label in JUDGE_LABELS.items()})
        [log] = inspect_eval(ffe_generation(), model=f"replay/{outputs}", model_roles={"grader": f"replay/{judge}"},
                             log_dir=str(base / "logs"), sample_id=list(GENERATION_OUTPUTS), display="none")
        answers = write_replay(base / "detection.jsonl", {"ffe-fake-001/fake-q": "Yes"})
        [detection] = inspect_eval(ffe_detection(controls=False), model=f"replay/{answers}", limit=1,
                                   log_dir=str(base / "detection-logs"), display="none")
    assert log.status == "success" and detection.status == "success"
    spec = annotation_spec("ffe_generation")
    items, _ = items_from_log(log, spec)
    write_sheet(items, base / "sheet.csv", spec.instructions)
    model = log.eval.model
    labels = write(base / "labels.csv", "task,model,sample_id,label,resolution,ann1,ann2\n" + "".join(
        f"ffe_generation,{model},{sid},{label},agreed,{label},{label}\n" for sid, label in HUMAN_LABELS.items()))
    return Annotated(Path(log.location), model, Path(detection.location), base / "sheet.csv", labels)


class Context:
    """What a command case builds its arguments from: the test's tmp dir, the data it needs, the annotated run."""

    def __init__(self, tmp: Path, request: pytest.FixtureRequest, datasets):
        self.tmp, self.request, self.need = tmp, request, datasets

    @property
    def annotated(self) -> Annotated:
        return self.request.getfixturevalue("annotated")

    @property
    def logs(self) -> str:
        return str(self.tmp / "logs")

    def file(self, name: str, data: str | bytes) -> str:
        return str(write(self.tmp / name, data))

    def replay(self, outputs: dict[str, str | dict], name: str = "answers.jsonl") -> str:
        return f"replay/{write_replay(self.tmp / name, outputs)}"

    def folder(self, name: str, files: dict[str, str | bytes]) -> str:
        (self.tmp / name).mkdir(parents=True, exist_ok=True)
        for file, data in files.items():
            write(self.tmp / name / file, data)
        return str(self.tmp / name)

    def copy(self, source: Path, name: str) -> str:
        (self.tmp / name).parent.mkdir(parents=True, exist_ok=True)
        return str(shutil.copy(source, self.tmp / name))


def run(ctx: Context, task: str, *args: str, data: str | None = None) -> list[str]:
    ctx.need(data)
    return ["run", task, *args, "--log-dir", ctx.logs]


def detection(ctx: Context, replay: dict | str, *args: str) -> list[str]:
    """ffe_detection on the first fake under fake-q; `replay`: outputs by sample id, or a replay file's path."""
    model = f"replay/{replay}" if isinstance(replay, str) else ctx.replay(replay)
    return run(ctx, "ffe_detection", "--model", model, "-T", "controls=false", "--sample-id",
               "ffe-fake-001/fake-q", *args,
               data="ffe")


def logprob_detection(ctx: Context, yes: float, no: float) -> list[str]:
    return detection(ctx, {"ffe-fake-001/fake-q": {"output": "", **top(yes, no)}}, "-T", "answer_mode=logprob")


def qa_run(ctx: Context, data: str | bytes, *args: str, task: str = "perhallueval_qa", item: str = "q1/*") -> list[str]:
    answers = {f"phe-{task.split('_')[1]}-q{i}/{version}": answer
               for i in range(1, 7) for version, answer in (("correct", "Y"), ("hallucinated", "N"))}
    return run(ctx, task, "-T", f"data={ctx.file('q.csv', data)}", "--model", ctx.replay(answers),
               "--sample-id", f"phe-{task.split('_')[1]}-{item}", *args)


def phe_sheet(ctx: Context, name: str, label: Callable[[str], str] = lambda item: "hallucinated",
              edit: Callable[[dict], dict] = lambda row: row, encode: Callable[[str], bytes] = str.encode) -> str:
    """An annotator's copy of kept.csv, built from the fixture's items (hallucination_label filled), with a column
    naming the annotator (people who label alike still hand in different files)."""
    rows = list(csv.DictReader(io.StringIO(final_qa())))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "source", "context", "question", "correct", "hallucinated", "generator", "verifier_score",
                     "hallucination_label", "persian_specific", "annotator"])
    for row in rows:
        row = edit(row)
        writer.writerow([row["id"], row["source"], row["context"], row["question"], row["correct"], row["hallucinated"],
                         row["generator"], row["verifier_score"], label(row["id"]), row["persian_specific"],
                         Path(name).stem])
    return ctx.file(name, encode(out.getvalue()))


def finalize(ctx: Context, *sheets: str, task: str = "qa", out: str | None = None,
             kept_edit: Callable[[dict], dict] = lambda row: row) -> list[str]:
    """`build perhallueval-final` into DIR (default: tmp/build, which the build step made, with its kept.csv: the
    fixture's items, `kept_edit` applied, labels empty; the sheets are checked against it)."""
    if out is None:
        (ctx.tmp / "build").mkdir(exist_ok=True)
        phe_sheet(ctx, "build/kept.csv", label=lambda item: "", edit=kept_edit)
    return ["build", "perhallueval-final", "--task", task, "--out", out or str(ctx.tmp / "build"), *sheets]


def same_versions_q1(row: dict) -> dict:
    return {**row, "hallucinated": row["correct"]} if row["id"] == "q1" else row


def long_context_q1(row: dict) -> dict:
    return {**row, "context": long_text()} if row["id"] == "q1" else row


def three_sheets(ctx: Context, **options) -> list[str]:
    return [phe_sheet(ctx, f"ann{i}.csv", **options) for i in (1, 2, 3)]


def labels_with(ctx: Context, extra: str = "", edit: Callable[[str], str] = lambda text: text) -> str:
    return ctx.file("labels.csv", edit(ctx.annotated.labels_text()) + extra)


def refuses(*fragments: str):
    return ("refused", fragments)


def succeeds(check: Callable[[object, Context], bool]):
    return ("accepted", check)


def stdout_has(*pieces: str):
    return succeeds(lambda result, ctx: all(piece in result.stdout for piece in pieces))


def rows(*pairs: tuple[str, str]):
    return succeeds(lambda result, ctx: all(has_row(result.stdout, name, value) for name, value in pairs))


def command(build: Callable[[Context], list[str]], expected, *marks, id: str):
    """A command case: the arguments it builds, what it expects, its marks and its id."""
    return pytest.param(build, expected, marks=marks, id=id)


def _link(ctx: Context, link: str, target: str) -> str:
    """A symbolic link at tmp/LINK to a file tmp/TARGET (written); returns the link."""
    ctx.file(target, "someone's file\n")
    (ctx.tmp / link).parent.mkdir(parents=True, exist_ok=True)
    (ctx.tmp / link).symlink_to(ctx.tmp / target)
    return str(ctx.tmp / link)


def _linked(ctx: Context, link: str, target: str) -> str:
    """A symbolic link at tmp/LINK to a file tmp/TARGET (written); returns the folder holding the link."""
    return str(Path(_link(ctx, link, target)).parent)


def _final_csv(ctx: Context) -> list[dict]:
    return list(csv.DictReader(io.StringIO((ctx.tmp / "build" / "final.csv").read_text(encoding="utf-8"))))


PQUAD_WITHOUT_QUESTION = json.dumps({"data": [{"title": "حافظ", "paragraphs": [{
    "context": "حافظ شیرازی در قرن هشتم هجری در شیراز می‌زیست.",
    "qas": [{"id": 1, "answers": [{"text": "شیراز", "answer_start": 30}], "is_impossible": False}]}]}]},
    ensure_ascii=False)
"""A PQuAD file whose one question lost its text."""

COMMAND_CASES = [
    # figeval run: replay model files, models, --limit
    command(lambda c: logprob_detection(c, math.nan, -0.1), refuses("answers.jsonl", "line 1"),
            id="run-replay-nan-logprob"),
    command(lambda c: logprob_detection(c, math.inf, -0.1), refuses("answers.jsonl", "line 1"),
            id="run-replay-infinite-logprob"),
    command(lambda c: logprob_detection(c, -math.inf, -0.01),
            rows(("  Prompt-Fake Halluc.(%)", "100.0 [20.7, 100.0] (n=1), lower is better"),
                 ("  Unparsed(%) *", "0.0 [0.0, 79.3] (n=1)")),
            id="run-replay-minus-infinity-logprob-is-probability-zero"),
    command(lambda c: detection(c, c.file("u.jsonl", utf16(replay_line(output="بله") + "\n"))), refuses("u.jsonl"),
            id="run-replay-utf16"),
    command(lambda c: run(c, "ffe_detection", "--model", f"replay/{c.tmp}", "-T", "controls=false", data="ffe"),
            refuses("replay: no file at"), id="run-replay-directory"),
    command(lambda c: detection(c, {"tr-idiom-001/figurative": "yes"}),
            refuses("no output for sample id 'ffe-fake-001/fake-q'"),
            id="run-replay-file-of-another-task"),
    command(lambda c: run(c, "ffe_detection", "--limit", "-1", "-T", "controls=false", data="ffe"),
            refuses("--limit -1: give a number of samples of 1 or more"), id="run-limit-negative"),
    command(lambda c: run(c, "ffe_detection", "--model", "nosuch/x", "-T", "controls=false",
                          "--limit", "1", data="ffe"),
            refuses("nosuch"), id="run-unknown-provider"),
    command(lambda c: run(c, "ffe_detection", "--model",
                          f"gguf/{c.file('notes.gguf', 'not a model')}", "-T", "controls=false",
                          "--sample-id", "ffe-fake-001/fake-q", data="ffe"), refuses("notes.gguf"),
            id="run-gguf-file-that-is-not-a-model"),
    # figeval run: task files
    command(lambda c: run(c, "ffe_generation", "-T", "meaning=paraphrased", "-T",
                          f"paraphrases={c.file('p.csv', PAIRS)}",
                          data="ffe"), refuses("p.csv", "missing ['row', 'farsi_idiom'"),
            id="run-paraphrases-given-pairs-file"),
    command(lambda c: run(c, "ffe_generation", "-T", "meaning=paraphrased", "--model", c.replay(GENERATION_OUTPUTS),
                          "-T", "paraphrases=" + c.file("pp.csv", PARAPHRASES.replace("\n2,", "\n-1,")),
                          data="ffe"), refuses("pp.csv", "row 2"),
            id="run-paraphrases-negative-row"),
    command(lambda c: run(c, "ffe_generation", "-T", "meaning=paraphrased", "-T",
                          f"paraphrases={c.file('pp.csv', PARAPHRASES)}",
                          "--model", c.replay({"ffe-gen-001/paraphrased": "به بار اوردن",
                                               "ffe-gen-002/paraphrased": "چیزی نه به دار است نه به بار"}),
                          "-T", "judge_every_output=false", "--model-role", "grader=mockllm/model", data="ffe"),
            # never asked: both answers are references, and the judge is not asked to label them beside the rule
            succeeds(lambda r, c: "2 verified paraphrases used, 1 unverified rows dropped" in r.stderr
                     and has_row(r.stdout, "samples", "2")), id="run-paraphrases-verified-rows-used"),
    command(lambda c: run(c, "ffe_translation", "-T", "pairs=" + c.file("p.csv", PAIRS.replace(",یخ", ',"یخ')),
                          "--model", c.replay({"ffe-tr-001": "یخ را شکستن"}), data="ffe"), refuses("p.csv"),
            id="run-pairs-unclosed-quote"),
    command(lambda c: run(c, "ffe_translation", "-T",
                          f"pairs={real_data_folder('ffe-hallu') / 'Authentic FFEs.csv'}", data="ffe"),
            refuses("Authentic FFEs.csv: expected columns ['English Idiom', 'Farsi Idiom']"),
            id="run-pairs-given-authentic-file"),
    command(lambda c: run(c, "ffe_translation", "-T", f"pairs={c.file('p.csv', PAIRS)}", "--model", c.replay(
                {"ffe-tr-001": "یخ را شکستن", "ffe-tr-002": "دست کسی را رو کردن",
                 "ffe-tr-003": "با یک تیر دو نشان زدن"}),
                          "-T", "judge_every_output=false", "--model-role", "grader=mockllm/model", data="ffe"),
            # never asked: every answer is a reference, and the judge is not asked to label them beside the rule
            rows(("samples", "3"), ("  Hallucination(%)", "0.0 [0.0, 56.1] (n=3), lower is better, the judge's labels "
                                                          "(the paper's are people's)")), id="run-pairs-good-file"),
    command(lambda c: run(c, "tr_idiom_entailment", "--model", c.replay({"tr-idiom-001/paraphrase": "entailment",
                                                                         "tr-idiom-001/similar": "entailment"}),
                          "--sample-id", "tr-idiom-001/*", data="tr"),
            rows(("samples", "2"),
                 ("  Entailment", "0.500 [0.095, 0.905] (n=2), higher is better, the task's headline")),
            id="run-tr-idiom-entailment-accepted"),
    command(lambda c: run(c, "tr_idiom_detection", "-T", f"manual_labels={c.tmp}", data="tr"),
            refuses("Is a directory"),
            id="run-manual-labels-directory"),
    command(lambda c: run(c, "allusion_mc", "-T", "dataset=generated", "-T", f"generated={c.tmp}", data="allusions"),
            refuses("Is a directory"), id="run-allusion-generated-directory"),
    command(lambda c: run(c, "allusion_open", "-T", "dataset=generated", "-T",
                          f"generated={c.file('k.csv', KEPT_PASSAGES.replace('yes', 'no'))}", data="allusions"),
            refuses("k.csv: no row is marked keep=yes"), id="run-allusion-generated-nothing-kept"),
    command(lambda c: run(c, "perhallueval_qa", "-T", f"data={c.tmp / 'nosuch.csv'}"),
            refuses("nosuch.csv: cannot be read"),
            id="run-perhallueval-data-missing"),
    command(lambda c: qa_run(c, final_qa().replace("حافظ شیرازی در قرن هشتم هجری در شیراز می‌زیست.", long_text())),
            rows(("samples", "2")), id="run-perhallueval-200k-context-runs"),
    command(lambda c: qa_run(c, final_qa().replace(",شیراز,اصفهان,", ",شیراز,شیراز,")), refuses("q.csv", "row 1"),
            id="run-perhallueval-identical-versions"),
    command(lambda c: qa_run(c, final_qa(), task="perhallueval_summarization"), refuses("q.csv", "question"),
            id="run-perhallueval-qa-file-as-summarization"),
    command(lambda c: qa_run(c, final_qa()), rows(("samples", "2"), ("  QA Unparsed *", "0.000 [0.000, 0.658] (n=2)")),
            id="run-perhallueval-qa-accepted"),
    command(lambda c: qa_run(c, final_qa(), "-T", "answer_mode=logprob", item="q1/correct"),
            refuses("returned no logprobs"),
            id="run-perhallueval-logprob-from-a-replay-without-logprobs"),
    # figeval data import
    command(lambda c: ["data", "import", "turkish-idioms", c.folder("d", {"idioms.tsv": utf16(idioms())})],
            refuses("idioms.tsv: not UTF-8", "Nothing was stored"), id="import-turkish-utf16"),
    command(lambda c: ["data", "import", "turkish-idioms", str(c.tmp / "nosuch")], refuses("has no file 'idioms.tsv'"),
            id="import-turkish-missing-folder"),
    command(lambda c: ["data", "import", "turkish-idioms", str(IDIOMS_TSV)],
            refuses("is a file, not a folder, and not a zip", "give the folder holding 'idioms.tsv'"),
            id="import-turkish-file-instead-of-folder"),
    command(lambda c: ["data", "import", "turkish-idioms", c.folder("d", {"idioms.tsv/x": ""})],
            refuses("has no file 'idioms.tsv'"), id="import-turkish-directory-named-like-the-file"),
    command(lambda c: ["data", "import", "turkish-idioms", c.folder("d", {"idioms.tsv": idioms().replace(
                "çok sevinmek", long_text(words="çok sevinmek ve "))})],
            refuses("idioms.tsv: row 2, column 'description' holds 200,000 characters", "more than the 20,000",
                    "Nothing was stored"),
            id="import-turkish-200k-description-refused"),
    command(lambda c: ["data", "import", "turkish-idioms", c.folder("d", {"idioms.tsv": mac_roman(idioms())})],
            refuses("idioms.tsv"), id="import-turkish-mac-roman"),
    command(lambda c: ["data", "import", "persian-allusions", c.folder("d", {"PersPoems.csv": poems(),
                                                                             "LLM-Generated.csv": poems()})],
            refuses("LLM-Generated.csv: expected columns ['text', 'allusion']"),
            id="import-allusions-poems-as-generated"),
    command(lambda c: ["data", "import", "persian-allusions", c.folder("d", {"PersPoems.csv": cp1256(poems()),
                                                                             "LLM-Generated.csv": generated()})],
            refuses("PersPoems.csv: not UTF-8"), id="import-allusions-cp1256"),
    command(lambda c: ["data", "import", "persian-allusions",
                       c.folder("d", {"PersPoems.csv": poems() + lines_of(poems())[1] + "\n",
                                      "LLM-Generated.csv": generated()})],
            refuses("PersPoems.csv"), id="import-allusions-duplicate-row"),
    command(lambda c: ["data", "import", "ffe-hallu", c.folder("d", {"Authentic FFEs.csv": authentic(),
                                                                     "Fake FFEs.csv": question_marks(fake())})],
            refuses("Fake FFEs.csv: column 'Fake Idiom' has no Persian letters", "Nothing was stored"),
            id="import-ffe-letters-as-question-marks"),
    command(lambda c: ["data", "import", "ffe-hallu",
                       c.folder("d", {"Authentic FFEs.csv": fake(), "Fake FFEs.csv": authentic()})],
            refuses("Authentic FFEs.csv: expected columns ['farsi_idiom', 'Meaning']"), id="import-ffe-files-swapped"),
    command(lambda c: ["data", "import", "ffe-hallu", c.folder("d", {"Authentic FFEs.csv": "\ufeff" + authentic(),
                                                                     "Fake FFEs.csv": "\ufeff" + fake() + "\n"})],
            refuses("'Fake FFEs.csv' has sha256", "is pinned to"),
            id="import-ffe-not-the-pinned-bytes"),
    # figeval annotate export
    command(lambda c: ["annotate", "export", c.copy(c.annotated.log, "logs/run.eval"), "--out",
                       str(c.tmp / "logs/run.eval")],
            refuses("is one of the command's inputs"), id="export-out-is-the-input-log"),
    command(lambda c: ["annotate", "export", str(c.annotated.log), "--out", str(c.tmp / "nosuch" / "sheet.csv")],
            refuses("the folder", "does not exist"), id="export-out-folder-missing"),
    command(lambda c: ["annotate", "export", str(Path(c.copy(c.annotated.log, "logs/run.eval")).parent),
                       "--out", str(c.tmp / "logs" / "run.eval")], refuses("is one of the command's inputs"),
            id="export-out-is-a-log-inside-the-input-dir"),
    command(lambda c: ["annotate", "export", c.file("logs/run.eval", "not a zip"), "--out", str(c.tmp / "s.csv")],
            refuses("run.eval is not an Inspect log"), id="export-eval-that-is-not-a-zip"),
    command(lambda c: ["annotate", "export", str(c.annotated.detection_log), "--out", str(c.tmp / "s.csv")],
            refuses("task 'ffe_detection' has no human-label scheme"),
            id="export-log-of-a-task-without-labels"),
    command(lambda c: ["annotate", "export", str(c.annotated.log), "--out", str(c.tmp / "s.csv")],
            stdout_has("5 answers to label written"), id="export-accepted"),
    command(lambda c: ["annotate", "export", c.folder("logs", {"run.eval": c.annotated.log.read_bytes(),
                                                               "notes.eval": "not a zip"}),
                       "--out", str(c.tmp / "s.csv")],
            refuses("notes.eval is not an Inspect log"), id="export-dir-holding-a-non-log"),
    # figeval annotate import
    command(lambda c: ["annotate", "import", c.file("a.csv", utf16(c.annotated.filled_sheet(HUMAN_LABELS))),
                       "--out", str(c.tmp / "l.csv")], refuses("a.csv: not UTF-8", "save the sheet as CSV UTF-8"),
            id="import-sheet-utf16"),
    command(lambda c: ["annotate", "import", c.file("d/a.csv", c.annotated.filled_sheet(HUMAN_LABELS)),
                       "--out", str(c.tmp / "d" / ".." / "d" / "a.csv")], refuses("is one of the command's inputs"),
            id="import-out-is-the-sheet"),
    command(lambda c: ["annotate", "import", c.file("a.csv", c.annotated.filled_sheet(HUMAN_LABELS)),
                       "--out", str(c.tmp / "nosuch" / "l.csv")], refuses("the folder", "does not exist"),
            id="import-out-folder-missing"),
    command(lambda c: ["annotate", "import",
                       c.file("a.csv", c.annotated.filled_sheet({**HUMAN_LABELS, "ffe-gen-005/human": "-1"})),
                       "--out", str(c.tmp / "l.csv")], refuses("a.csv", "'-1'"),
            id="import-label-negative"),
    command(lambda c: ["annotate", "import", c.file("a.csv", c.annotated.filled_sheet(HUMAN_LABELS)),
                       c.file("b.csv", c.annotated.filled_sheet(HUMAN_LABELS)), "--out", str(c.tmp / "l.csv")],
            refuses("a.csv and", "b.csv have the same content"), id="import-one-sheet-under-two-names"),
    command(lambda c: ["annotate", "import",
                       *[c.file(f"a{i}.csv", c.annotated.filled_sheet({**HUMAN_LABELS, "ffe-gen-001/human": str(i % 3),
                                                                       "ffe-gen-003/human": str(i // 3)}))
                         for i in range(4)],
                       "--out", str(c.tmp / "l.csv")], refuses("give one to three annotators' sheets, not 4"),
            id="import-four-sheets"),
    command(lambda c: ["annotate", "import", c.file("ls.json", json.dumps([{"data": "ffe_generation"}])),
                       "--out", str(c.tmp / "l.csv")], refuses("ls.json"),
            id="import-label-studio-data-not-an-object"),
    command(lambda c: ["annotate", "import", c.file("a.csv", c.annotated.filled_sheet(HUMAN_LABELS)),
                       c.file("b.csv", c.annotated.filled_sheet({**HUMAN_LABELS, "ffe-gen-006/human": "0"})),
                       "--out", str(c.tmp / "l.csv")],
            stdout_has("5 answers: 4 agreed, 1 unresolved", "unresolved: ffe-gen-006/human"),
            id="import-accepted"),
    # figeval annotate rates
    command(lambda c: ["annotate", "rates",
                       labels_with(c, f"ffe_generation,{c.annotated.model},ffe-gen-006/human,correct,agreed,"
                                                           "correct,correct\n"), str(c.annotated.log)],
            refuses("labels.csv", "ffe-gen-006/human"),
            id="rates-duplicate-label-row"),
    command(lambda c: ["annotate", "rates", str(c.annotated.sheet), str(c.annotated.log)],
            refuses("sheet.csv: not a labels file"), id="rates-given-a-sheet"),
    command(lambda c: ["annotate", "rates", str(c.annotated.labels), str(c.annotated.log)],
            succeeds(lambda r, c: re.search(r"humans +5 +20\.0 +60\.0 +20\.0", r.stdout) is not None),
            id="rates-accepted"),
    command(lambda c: ["annotate", "rates",
                       labels_with(c, edit=lambda text: text.replace("ffe_generation", "allusion_open")
                                                        .replace("hallucinated", "incorrect")),
                       str(c.annotated.detection_log)],
            refuses("labels answers of allusion_open, but the logs are runs of ffe_detection"),
            id="rates-log-of-another-task"),
    # figeval annotate compare
    command(lambda c: ["annotate", "compare", str(c.annotated.sheet), str(c.annotated.log)],
            refuses("sheet.csv: not a labels file"), id="compare-given-a-sheet"),
    command(lambda c: ["annotate", "compare", str(c.annotated.labels), str(c.annotated.log),
                       str(c.annotated.detection_log)],
            refuses("a run of ffe_detection, but labels.csv labels answers of ffe_generation"),
            id="compare-a-log-of-another-task-beside-the-right-one"),
    command(lambda c: ["annotate", "compare", str(c.annotated.labels), str(c.annotated.log)],
            # the rates as `rates-accepted`, the judge's agreement as `agreement-accepted`
            succeeds(lambda r, c: re.search(r"humans +5 +20\.0 +60\.0 +20\.0", r.stdout) is not None
                     and re.search(r"^ +5 +0\.800 ", r.stdout, re.MULTILINE) is not None),
            id="compare-accepted"),
    # figeval judge agreement --human
    command(lambda c: ["judge", "agreement", str(c.annotated.log), "--human", str(c.tmp)], refuses("Is a directory"),
            id="agreement-human-is-a-directory"),
    command(lambda c: ["judge", "agreement", str(c.annotated.log), "--human",
                       labels_with(c, edit=lambda text: text.replace("ffe-gen-004/human,correct,",
                                                                     "ffe-gen-004/human,7,"))],
            refuses("labels.csv", "ffe-gen-004/human"), id="agreement-human-label-out-of-range"),
    command(lambda c: ["judge", "agreement", str(c.annotated.log), "--human",
                       labels_with(c, edit=lambda text: text.replace("ffe_generation", "allusion_open")
                                  .replace("hallucinated", "incorrect"))],
            refuses("labels answers of allusion_open, but the logs are runs of ffe_generation"),
            id="agreement-labels-of-another-task"),
    command(lambda c: ["judge", "agreement", str(c.tmp / "nosuch.eval"), "--human", str(c.annotated.labels)],
            refuses("no log at"), id="agreement-log-missing"),
    command(lambda c: ["judge", "agreement", str(c.annotated.log), str(c.annotated.detection_log), "--human",
                       str(c.annotated.labels)],
            refuses("a run of ffe_detection, but labels.csv labels answers of ffe_generation"),
            id="agreement-a-log-of-another-task-beside-the-right-one"),
    command(lambda c: ["judge", "agreement", str(c.annotated.log), "--human", str(c.annotated.labels)],
            # the judge labelled every output and disagrees with the people on 006: 4 of 5
            succeeds(lambda r, c: re.search(r"^ +5 +0\.800 ", r.stdout, re.MULTILINE) is not None),
            id="agreement-accepted"),
    # figeval report
    command(lambda c: ["report", c.folder("r", {"notes.txt": "hello", "results.json": "{}"})],
            refuses("no Inspect logs in", "nothing was written"), id="report-dir-of-non-logs"),
    command(lambda c: ["report", c.folder("r", {})], refuses("no Inspect logs in"), id="report-empty-dir"),
    command(lambda c: ["report", c.folder("r", {}), "--format", "html", "--out", str(c.tmp / "site")],
            refuses("no Inspect logs in", "nothing was written"), id="report-empty-dir-in-html"),
    command(lambda c: ["report", str(c.annotated.log.parent), "--format", "csv", "--out", str(c.tmp / "r"),
                       "--human", c.copy(c.annotated.labels, "r/report.csv")],
            refuses("--out DIR/report.csv", "r/report.csv is one of the command's inputs"),
            id="report-out-would-replace-the-human-labels"),
    command(lambda c: ["report", str(c.annotated.log.parent), "--out", c.folder("r", {"report.txt/notes": "x"})],
            refuses("r/report.txt is a folder"), id="report-out-target-is-a-folder"),
    command(lambda c: ["report", str(c.annotated.log.parent), "--out", _linked(c, "r/report.txt", "labels.csv")],
            refuses("r/report.txt is a symbolic link"), id="report-out-target-is-a-link"),
    command(lambda c: ["report", c.folder("r", {"run.eval": "not a zip"})], refuses("run.eval"),
            id="report-eval-that-is-not-a-zip"),
    command(lambda c: ["report", str(c.annotated.log)], refuses("no log directory at"), id="report-given-a-file"),
    command(lambda c: ["report", c.folder("r", {}), "--human", str(c.tmp)], refuses("Is a directory"),
            id="report-human-is-a-directory"),
    command(lambda c: ["report", str(c.annotated.log.parent), "--out", str(c.annotated.log)], refuses("is a file"),
            id="report-out-is-a-log"),
    # figeval build
    command(lambda c: ["build", "ffe-hallu-paraphrases", "--model", "mockllm/model", "--out",
                       _link(c, "sheet.csv", "elsewhere.csv")],
            refuses("--out", "sheet.csv is a symbolic link"), id="build-paraphrases-out-is-a-link"),
    command(lambda c: ["build", "perhallueval-candidates", "--task", "qa",
                       "--source", c.file("pq.json", PQUAD_WITHOUT_QUESTION),
                       "--n", "1", "--generator", "mockllm/model", "--verifier", "mockllm/model", "--out",
                       str(c.tmp / "b"), "--categories", c.file("b/kept.csv", "title,category\n")],
            refuses("b/kept.csv is one of the command's inputs"), id="build-perhallueval-input-named-like-its-output"),
    command(lambda c: ["build", "perhallueval-candidates", "--task", "qa",
                       "--source", c.file("pq.json", PQUAD_WITHOUT_QUESTION),
                       "--n", "1", "--generator", "mockllm/model", "--verifier", "mockllm/model", "--out",
                       c.file("b", "a file")], refuses("--out", "is a file; --out names a folder to write into"),
            id="build-perhallueval-out-is-a-file"),
    command(lambda c: ["build", "perhallueval-candidates", "--task", "qa",
                       "--source", c.file("pq.json", PQUAD_WITHOUT_QUESTION),
                       "--n", "1", "--generator", "mockllm/model", "--verifier", "mockllm/model",
                       "--out", str(c.tmp / "b")],
            refuses("pq.json: article 1, paragraph 1, question 1 has no 'question'"),
            id="build-perhallueval-pquad-question-without-text"),
    command(lambda c: ["build", "ffe-hallu-fakes", "--out", str(c.tmp / "fakes"), "--checker", "nosuch/x"],
            refuses("--checker nosuch/x: unknown provider 'nosuch'"), id="build-fakes-unknown-checker-provider"),
    # figeval build perhallueval-final
    command(lambda c: finalize(c, *three_sheets(c)[:2]), refuses("give the three annotators' sheets, not 2"),
            id="final-two-sheets"),
    command(lambda c: finalize(c, *[phe_sheet(c, "ann1.csv")] * 3), refuses("ann1.csv and", "have the same content"),
            id="final-one-sheet-three-times"),
    command(lambda c: finalize(c, phe_sheet(c, "ann1.csv"), c.file("copy.csv", (c.tmp / "ann1.csv").read_bytes()),
                               phe_sheet(c, "ann3.csv")),
            refuses("ann1.csv and", "copy.csv have the same content"), id="final-sheet-copied-under-another-name"),
    command(lambda c: finalize(c, phe_sheet(c, "build/final.csv"), *three_sheets(c)[1:]),
            refuses("is one of the command's inputs"), id="final-out-is-a-sheet"),
    command(lambda c: finalize(c, *three_sheets(c), out=str(c.tmp / "nosuch" / "build")),
            refuses("the folder", "does not exist"),
            id="final-out-folder-missing"),
    command(lambda c: finalize(c, phe_sheet(c, "a.csv", label=lambda i: "maybe"), *three_sheets(c)[1:]),
            refuses("a.csv: row 1, column 'hallucination_label' is 'maybe'"),
            id="final-label-not-a-label"),
    command(lambda c: finalize(c, *three_sheets(c, edit=lambda row: {**row, "persian_specific": ""})),
            refuses("ann1.csv: row 1, column 'persian_specific' is ''"),
            id="final-summarization-sheets-as-qa"),
    command(lambda c: finalize(c, *three_sheets(c), task="summarization"), refuses("kept.csv: row 1 has a question"),
            id="final-qa-sheets-as-summarization"),
    command(lambda c: finalize(c, *three_sheets(c, edit=same_versions_q1), kept_edit=same_versions_q1),
            refuses("kept.csv: row 1 (id 'q1'): the hallucinated version is the correct one"),
            id="final-identical-versions"),
    command(lambda c: finalize(c, phe_sheet(c, "a.csv", encode=utf16), *three_sheets(c)[1:]),
            refuses("a.csv: not UTF-8"),
            id="final-sheet-utf16"),
    command(lambda c: finalize(c, phe_sheet(c, "a.csv", edit=lambda row: {**row, "id": row["id"].replace("q6", "q7")}),
                       *three_sheets(c)[1:]), refuses("a.csv: row 6, column 'id': item 'q7' is not in"),
            id="final-sheets-of-other-items"),
    command(lambda c: finalize(c, *three_sheets(c, edit=long_context_q1), kept_edit=long_context_q1),
            succeeds(lambda r, c: len(_final_csv(c)[0]["context"]) == 200_000),
            id="final-200k-context-kept"),
    command(lambda c: finalize(c,
                               *[phe_sheet(c, f"ann{i}.csv", label=lambda item, i=i: "factual" if item == "q2" and i < 3
                                              else "hallucinated") for i in (1, 2, 3)]),
            succeeds(lambda r, c: "5 of 6 items validated as hallucinated" in r.stdout
                     and [row["id"] for row in _final_csv(c)] == ["q1", "q3", "q4", "q5", "q6"]), id="final-accepted"),
]


@pytest.mark.parametrize("build, expected", COMMAND_CASES)
def test_command(build: Callable[[Context], list[str]], expected, request: pytest.FixtureRequest, datasets,
                 tmp_path: Path):
    ctx = Context(tmp_path, request, datasets)
    args = build(ctx)
    result = figeval(*args, cwd=tmp_path)
    kind, detail = expected
    if kind == "refused":
        assert_one_line_error(result, *detail)
    else:
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert detail(result, ctx), result.stdout + result.stderr
