"""Where records come from: files, directories, standard input, compressed files and zip archives.

Every input is read as a stream of decoded text lines: memory does not grow
with the size of a file. The encoding is told from a byte-order mark, else
strict UTF-8 on the first 64 KiB, else CP1251 (Russian Windows), unless the
user names one.
"""
from __future__ import annotations

import bz2
import codecs
import fnmatch
import gzip
import lzma
import os
import re
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, Callable

HEAD_BYTES = 1 << 16
CHUNK_BYTES = 1 << 16
_COMPRESSED: dict[str, Callable[[BinaryIO], BinaryIO]] = {
    ".gz": lambda raw: gzip.GzipFile(fileobj=raw),
    ".bz2": bz2.BZ2File,
    ".xz": lzma.LZMAFile,
}
_LINE_END = re.compile(r"\r\n|\r|\n")


class InputError(Exception):
    """An input that cannot be opened or decoded; the message says which and why."""


@dataclass(frozen=True)
class Source:
    """One input text: its name for messages, and how to open it as bytes."""

    name: str
    open: Callable[[], BinaryIO]

    @property
    def plain_name(self) -> str:
        """The name without a compression extension (``games.ntn`` for ``games.ntn.gz``)."""
        base = self.name.rsplit(":", 1)[-1]
        for extension in _COMPRESSED:
            if base.lower().endswith(extension):
                return base[: -len(extension)]
        return base


def sniff_encoding(head: bytes) -> str:
    """The encoding of a text from its first bytes."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        return "utf-8"
    except UnicodeDecodeError:
        return "cp1251"


def read_lines(source: Source, encoding: str | None = None) -> Iterator[str]:
    """The decoded lines of ``source`` with their line ends, read in chunks.

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (old Mac files); bytes that
    are not valid in the encoding become U+FFFD rather than stopping the read.
    """
    try:
        stream = source.open()
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError(f"{source.name}: cannot open: {error.strerror or error}") from None
    with stream:
        try:
            head = stream.read(HEAD_BYTES)
        except (OSError, EOFError, lzma.LZMAError, zipfile.BadZipFile) as error:
            raise InputError(f"{source.name}: cannot read: {error}") from None
        decoder = codecs.getincrementaldecoder(encoding or sniff_encoding(head))(errors="replace")
        pending = ""
        chunk = head
        while True:
            final = not chunk
            text = pending + decoder.decode(chunk, final=final)
            start = 0
            for match in _LINE_END.finditer(text):
                if match.end() == len(text) and match.group() == "\r" and not final:
                    break  # a \r at the chunk's end may be the first half of \r\n
                yield text[start:match.end()]
                start = match.end()
            pending = text[start:]
            if final:
                break
            try:
                chunk = stream.read(CHUNK_BYTES)
            except (OSError, EOFError, lzma.LZMAError, zipfile.BadZipFile) as error:
                raise InputError(f"{source.name}: cannot read: {error}") from None
        if pending:
            yield pending


def _decompressed(name: str, raw: BinaryIO) -> BinaryIO:
    """``raw`` itself, or a decompressing stream over it when ``name`` says it is compressed."""
    opener = _COMPRESSED.get(os.path.splitext(name)[1].lower())
    return opener(raw) if opener else raw


def _file_source(path: str) -> Source:
    return Source(path, lambda: _decompressed(path, open(path, "rb")))


def _zip_sources(path: str, pattern: str | None) -> Iterator[Source]:
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError(f"{path}: not a readable zip archive: {error}") from None
    with archive:
        members = [info.filename for info in archive.infolist() if not info.is_dir()]
    for member in members:
        if pattern and not fnmatch.fnmatch(os.path.basename(member), pattern):
            continue
        yield Source(f"{path}:{member}", lambda member=member: _open_member(path, member))


def _open_member(path: str, member: str) -> BinaryIO:
    return _decompressed(member, zipfile.ZipFile(path).open(member))


def iter_sources(paths: list[str] | tuple[str, ...], *, pattern: str | None = None,
                 extensions: tuple[str, ...] = ()) -> Iterator[Source]:
    """The inputs named by ``paths``: ``-`` is standard input, directories are walked
    (files matching ``pattern``, else having one of ``extensions``), ``.zip`` archives
    give every member. A path that does not exist raises :class:`InputError`."""
    for path in paths:
        if path == "-":
            yield Source("<stdin>", lambda: sys.stdin.buffer)
        elif os.path.isdir(path):
            for directory, subdirs, files in os.walk(path):
                subdirs.sort()
                for filename in sorted(files):
                    full = os.path.join(directory, filename)
                    if _wanted(filename, pattern, extensions):
                        yield from _zip_sources(full, pattern) if filename.lower().endswith(".zip") \
                            else [_file_source(full)]
        elif os.path.exists(path):
            yield from _zip_sources(path, pattern) if path.lower().endswith(".zip") else [_file_source(path)]
        else:
            raise InputError(f"{path}: no such file or directory")


def _wanted(filename: str, pattern: str | None, extensions: tuple[str, ...]) -> bool:
    if pattern:
        return fnmatch.fnmatch(filename, pattern) or filename.lower().endswith(".zip")
    lowered = filename.lower()
    for extension in _COMPRESSED:
        if lowered.endswith(extension):
            lowered = lowered[: -len(extension)]
    return lowered.endswith(extensions + (".zip",))
