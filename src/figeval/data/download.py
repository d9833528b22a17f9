"""Downloading one file of a pinned source, with progress for a large one.

A download that fails or ends before the length the server announced raises `DownloadFailed` with the reason in
a few words; the store turns it into its one-line message (where the data is, how to import it offline). The
file is written where the store says, inside its staging folder: it reaches the dataset's folder only once the
whole dataset is downloaded and verified.
"""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

_DOWNLOAD_TIMEOUT_S = 60
_PROGRESS_FROM_BYTES = 10 << 20  # downloads this large report their progress (tenths)
_BLOCK = 1 << 20


class DownloadFailed(Exception):
    """The download did not complete; the message is the reason (an HTTP status, a network error, a cut)."""


def download(url: str, destination: Path, report: Callable[[str], None]) -> None:
    """Write the body at `url` to `destination`.

    Raises:
        DownloadFailed: the server refused, the network failed, or the body ended before its Content-Length.
        OSError: `destination` cannot be written (a local problem, not the download's).
    """
    report(f"downloading {url}")
    with destination.open("wb") as out:
        try:
            response = urllib.request.urlopen(url, timeout=_DOWNLOAD_TIMEOUT_S)
        except urllib.error.HTTPError as error:
            raise DownloadFailed(f"HTTP {error.code} {error.reason}") from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
            raise DownloadFailed(str(getattr(error, "reason", error))) from None
        with response:
            total = int(response.headers.get("Content-Length") or 0)
            done, shown = 0, 0
            while block := _read(response):
                out.write(block)
                done += len(block)
                if total >= _PROGRESS_FROM_BYTES and done * 10 // total > shown:
                    shown = done * 10 // total
                    report(f"  {done * 100 // total}% of {total / 1e6:.1f} MB")
    # urllib returns a body cut short by a closed connection as if it had ended (measured): only the announced
    # length tells a cut file from a whole one.
    if total and done != total:
        raise DownloadFailed(f"the connection ended after {done:,} of {total:,} bytes")


def _read(response: http.client.HTTPResponse) -> bytes:
    try:
        return response.read(_BLOCK)
    except (http.client.HTTPException, OSError) as error:
        raise DownloadFailed(f"the download broke off ({type(error).__name__}: {error})") from None
