"""Where records come from: files, directories, standard input, compressed files and zip archives.

Every input is read as a stream of decoded text lines: memory does not grow
with the size of a file, only with its longest line. The encoding is told from a
byte-order mark, else from NUL bytes (UTF-16 without a mark), else the text is
decoded line by line: a line that is valid UTF-8 is UTF-8, another is a Windows code page
(CP1251, Russian, or CP1252, Western: :func:`code_page`) until the file has shown UTF-8
letters, after which its bad bytes become U+FFFD. A line that is valid UTF-8 is never read
otherwise. The user may name an encoding.
Compression is told from the name (``.gz``, ``.bz2``, ``.xz``), else from the
first bytes. formats/input.md says all this for users.
"""
from __future__ import annotations

import codecs
import fnmatch
import functools
import importlib
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import IO, TYPE_CHECKING, Any, NamedTuple, Protocol

from nardy_cli.record import InputError

if TYPE_CHECKING:
    import zipfile

STDIN = "<stdin>"  # the name of standard input in messages
CHUNK_BYTES = 1 << 16
SNIFF_BYTES = 64  # what the encoding is told from
# The modules whose open() reads compressed data, given a file name (then it closes the file) or a
# stream; each is imported when a file so compressed is met (a few ms each, at every start otherwise).
_COMPRESSED = {".gz": "gzip", ".bz2": "bz2", ".xz": "lzma"}
_MAGIC = ((re.compile(rb"\x1f\x8b"), ".gz"), (re.compile(rb"BZh[1-9]1AY&SY"), ".bz2"),
          (re.compile(rb"\xfd7zXZ\x00"), ".xz"))
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\n|\r)")
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # where str.splitlines also breaks


def _read_errors() -> tuple[type[BaseException], ...]:
    """What a damaged compressed file or archive raises while it is read (asked by ``except`` only
    when something is raised: the modules are imported then, if no input needed them before)."""
    import lzma
    import zipfile
    import zlib

    return OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile


def _open_errors() -> tuple[type[BaseException], ...]:
    """What opening one raises besides: encrypted or unsupported zip members."""
    return *_read_errors(), RuntimeError, NotImplementedError


def _decompressing(compression: str, file: Any) -> IO[bytes]:
    """The data of ``file`` (a name or a stream) compressed as ``compression`` (an extension)."""
    opened: IO[bytes] = importlib.import_module(_COMPRESSED[compression]).open(file)
    return opened


class Source(NamedTuple):
    """One input text: its name for messages (see :func:`shown`), how to open it as bytes, and the
    path of the file it is, which a worker may open itself ("" for standard input, an archive's
    member and a folder): a named tuple, as the records made at start-up are (see
    :class:`~nardy_cli.cli.options.Corpus`)."""

    name: str
    open: Callable[[], IO[bytes]]
    path: str = ""

    @property
    def plain_name(self) -> str:
        """The name without a compression extension (``games.ntn`` for ``games.ntn.gz``)."""
        base = self.name.rsplit(":", 1)[-1]
        for extension in _COMPRESSED:
            if base.lower().endswith(extension):
                return base[: -len(extension)]
        return base


class _Decoder(Protocol):
    def decode(self, data: bytes, final: bool = False) -> str: ...


class _Utf8OrCodePage:
    """Line by line: a line that is valid UTF-8 is UTF-8; another is in a Windows code page (the
    first :func:`code_page` tells, kept for the rest of the file) until the file has shown a
    UTF-8 letter, after which its bad bytes are damage (U+FFFD). Decoding each line on its own, a
    stray byte costs only its line, and a valid UTF-8 region is never read otherwise.

    Splitting at line-end bytes is safe: in UTF-8 and these code pages they are never part of a letter.
    """

    def __init__(self) -> None:
        self._partial: list[bytes] = []  # the start of a line that goes on in the next chunk
        self._utf8_letters = False  # the file has shown non-ASCII UTF-8
        self._code_page: str | None = None  # told by a line's letters, for the whole file

    def decode(self, data: bytes, final: bool = False) -> str:
        end = len(data) if final else max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
        if not end and not final:  # no line end in this chunk: a long line goes on (joined once)
            self._partial.append(data)
            return ""
        self._partial.append(data[:end])
        data, self._partial = b"".join(self._partial), [data[end:]]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return "".join(map(self._line, data.splitlines(keepends=True)))
        self._utf8_letters = self._utf8_letters or not data.isascii()
        return text

    def _line(self, line: bytes) -> str:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            if self._utf8_letters:
                return line.decode("utf-8", errors="replace")
            page = self._code_page or code_page(line)
            if page is None:
                page = "cp1251"  # a lone byte tells nothing: the Russian page, for now
            else:
                self._code_page = page
            return line.decode(page, errors="replace")
        self._utf8_letters = self._utf8_letters or not line.isascii()
        return text


_LETTERS = re.compile(rb"[\xc0-\xff]+")  # letters in both pages (below: mostly punctuation, much of it shared)


def code_page(line: bytes) -> str | None:
    """The Windows code page of a line that is not UTF-8, by how its non-ASCII letters stand:
    ``cp1251`` (Russian) when some stand three or more in a row, or two in a row between no Latin
    letters (a Russian word); else ``cp1252`` (Western European) when some stand beside a Latin
    letter (an accented letter in a word: ``Müller``, ``Jörgen``); else None (a lone byte, which
    tells neither: so does a line of typographic quotes and dashes alone, the same in both)."""
    latin = False
    for run in _LETTERS.finditer(line):
        start, end = run.span()
        beside_latin = line[start - 1:start].isalpha() or line[end:end + 1].isalpha()
        if end - start >= 3 or (end - start == 2 and not beside_latin):
            return "cp1251"
        latin = latin or beside_latin
    return "cp1252" if latin else None


def check_encoding(encoding: str) -> None:
    """Raise :class:`InputError` unless ``encoding`` names a text encoding Python knows."""
    try:
        if not getattr(codecs.lookup(encoding), "_is_text_encoding", True):  # base64, rot13, zlib...
            raise LookupError(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}: name one such as utf-8, cp1251, utf-16 or latin-1 "
                         "(or leave --encoding out to have it detected)") from None


def sniff_encoding(head: bytes) -> str | None:
    """The encoding that the first bytes of a text show (a byte-order mark, or UTF-16's high
    bytes: NUL, or 0x04 for Cyrillic), or None when they show none."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    evens, odds = head[0:SNIFF_BYTES:2], head[1:SNIFF_BYTES:2]
    evens = evens[:len(odds)]
    if len(odds) >= 2 and _utf16_high_bytes(odds) and all(evens):
        return "utf-16-le"
    if len(odds) >= 2 and _utf16_high_bytes(evens) and all(odds):
        return "utf-16-be"
    return None


def _utf16_high_bytes(high: bytes) -> bool:
    """Whether ``high`` are the high bytes of UTF-16 text in Latin and Cyrillic letters: all NUL
    (ASCII), or NUL and 0x04 (U+0400-U+04FF, Cyrillic). Text in a byte encoding never has them:
    they are control characters."""
    return not high.translate(None, b"\x00\x04")


def _decoder(encoding: str | None, head: bytes) -> _Decoder:
    encoding = encoding or sniff_encoding(head)
    if encoding is None:
        return _Utf8OrCodePage()
    return codecs.getincrementaldecoder(encoding)(errors="replace")


def split_lines(pieces: Iterable[str]) -> Iterator[str]:
    """The lines of a text given in pieces, each with its line end: ``\\n``, ``\\r\\n`` or a lone
    ``\\r`` (old Mac files). Each piece is scanned once, so a long line costs linear time."""
    return chain.from_iterable(_line_batches(pieces))


def _line_batches(pieces: Iterable[str]) -> Iterator[list[str]]:
    """:func:`split_lines`' lines, a piece's at a time (a generator resumed per line costs more
    than the reader that takes the line)."""
    pending: list[str] = []  # the start of a line that goes on in the next piece
    for piece in pieces:
        if pending and piece and pending[-1].endswith("\r"):  # held back: it may have been half of \r\n
            cut = 1 if piece.startswith("\n") else 0
            yield ["".join(pending) + piece[:cut]]
            pending.clear()
            piece = piece[cut:]
        used = _lines_end(piece)
        # str.splitlines is many times as fast, and the same where no other break is there
        # (each looked for by str.find: a pattern of them scans many times as slowly)
        other_breaks = any(piece.find(character, 0, used) >= 0 for character in _OTHER_BREAKS)
        lines = _LINE.findall(piece, 0, used) if other_breaks else piece[:used].splitlines(True)
        if lines and pending:
            lines[0] = "".join(pending) + lines[0]
            pending.clear()
        if lines:
            yield lines
        if used < len(piece):
            pending.append(piece[used:])
    if pending:
        yield ["".join(pending)]


def _lines_end(piece: str) -> int:
    """Just past the last line end of ``piece``, but before a ``\\r`` that ends it (half of ``\\r\\n``?)."""
    end = max(piece.rfind("\n"), piece.rfind("\r")) + 1
    if end == len(piece) and piece.endswith("\r"):
        end = max(piece.rfind("\n", 0, end - 1), piece.rfind("\r", 0, end - 1)) + 1
    return end


def read_lines(source: Source, encoding: str | None = None) -> Iterator[str]:
    """The decoded lines of ``source`` with their line ends, read in chunks.

    Bytes that are not valid in the encoding become U+FFFD rather than stopping the
    read. An input that cannot be opened, or whose compressed data is damaged, raises
    :class:`InputError` (after the lines read before the damage).
    """
    return chain.from_iterable(_read_batches(source, encoding))  # no generator resumed per line


def _read_batches(source: Source, encoding: str | None) -> Iterator[list[str]]:
    """:func:`read_lines`' lines, a decoded chunk's at a time."""
    if encoding:
        check_encoding(encoding)
    try:
        stream = source.open()
    except _open_errors() as error:
        raise _unreadable_error(source.name, error, 0) from None
    lines = 0
    with stream:
        try:
            for batch in _line_batches(_decoded(stream, encoding)):
                yield batch
                lines += len(batch)
        except _read_errors() as error:
            raise _unreadable_error(source.name, error, lines) from None


def read_bytes(source: Source, limit: int) -> bytes:
    """The whole content of ``source`` (decompressed), for a binary notation; an input that cannot
    be read, or is longer than ``limit`` bytes, raises :class:`InputError`."""
    chunks: list[bytes] = []
    size = 0
    try:
        with source.open() as stream:
            while size <= limit and (chunk := stream.read(CHUNK_BYTES)):  # read(limit) would allocate limit
                chunks.append(chunk)
                size += len(chunk)
    except _open_errors() as error:
        raise _unreadable_error(source.name, error, 0) from None
    data = b"".join(chunks)
    if len(data) > limit:
        raise InputError(f"{source.name}: longer than {limit >> 20} MiB, too long for a file of its notation; check "
                         "that it is the file meant")
    return data


def _unreadable_error(name: str, error: BaseException, lines: int) -> InputError:
    """What to tell of an input that failed after ``lines`` lines: the system's words, or damage."""
    if isinstance(error, OSError) and error.errno is not None:
        return InputError(f"{name}: cannot read: {error.strerror}; check that the file exists and that you may "
                          "read it")
    where = f"after line {lines}" if lines else "from its start"
    return InputError(f"{name}: cannot read {where}: {_reason(error)}; the file is damaged, cut short or packed in "
                      "a way nardy does not read (the games before were read): fetch it again, or unpack it "
                      "yourself")


def _decoded(stream: IO[bytes], encoding: str | None) -> Iterator[str]:
    """The text of ``stream``, decoded as its bytes come (``read1``: what a damaged compressed
    file gives before the damage is not lost with the chunk that holds it)."""
    read = getattr(stream, "read1", stream.read)
    head = b""
    while len(head) < SNIFF_BYTES and (chunk := read(CHUNK_BYTES)):
        head += chunk
    decoder = _decoder(encoding, head)
    chunk = head
    while chunk:
        yield decoder.decode(chunk)
        chunk = read(CHUNK_BYTES)
    yield decoder.decode(b"", True)


def _reason(error: BaseException) -> str:
    """An exception's own words, for a message."""
    return getattr(error, "strerror", None) or str(error) or type(error).__name__


# --- opening ---------------------------------------------------------------------------------


class _Borrowed(io.RawIOBase):
    """Standard input for one reading: closing it leaves standard input open (``-`` may come twice)."""

    def __init__(self, stream: Any) -> None:
        super().__init__()
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self._stream.readinto(buffer)


def _compression(name: str, stream: Any = None) -> str | None:
    """The compression of a file: its extension's, else (given ``stream``) its first bytes'."""
    extension = os.path.splitext(name)[1].lower()
    if extension in _COMPRESSED:
        return extension
    head = stream.peek(16)[:16] if stream is not None and hasattr(stream, "peek") else b""
    return next((extension for magic, extension in _MAGIC if magic.match(head)), None)


READ_HOOKS: list[Callable[[int], object]] = []
"""Told the number of bytes of every read of an input file from disk (progress bars)."""


class _Counted(io.RawIOBase):
    """The reads of ``stream``, told to :data:`READ_HOOKS` (``counting``) and closing ``also`` with it."""

    def __init__(self, stream: Any, *, counting: bool, also: Any = None) -> None:
        super().__init__()
        self._stream, self._counting, self._also = stream, counting, also

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = self._stream.readinto(buffer) or 0
        for hook in READ_HOOKS if self._counting else ():
            hook(count)
        return count

    def close(self) -> None:
        self._stream.close()
        if self._also is not None:
            self._also.close()
        super().close()


def _open_file(path: str) -> IO[bytes]:
    if READ_HOOKS:
        raw: IO[bytes] = io.BufferedReader(_Counted(open(path, "rb", buffering=0), counting=True))
        compression = _compression(path, raw)
        if compression is None:
            return raw
        return io.BufferedReader(_Counted(_decompressing(compression, raw), counting=False, also=raw))
    compression = _compression(path)
    if compression is None:
        raw = open(path, "rb")
        compression = _compression(path, raw)
        if compression is None:
            return raw
        raw.close()
    return _decompressing(compression, path)


def _open_stdin() -> IO[bytes]:
    stream = io.BufferedReader(_Borrowed(sys.stdin.buffer))
    compression = _compression("", stream)
    return _decompressing(compression, stream) if compression else stream


@functools.lru_cache(maxsize=1)
def _archive(path: str, version: tuple[int, int]) -> zipfile.ZipFile:
    """The zip archive at ``path`` (``version``: its time and size), kept open while its members
    are read one after another: opening it again for each would read its directory each time."""
    import zipfile

    return zipfile.ZipFile(path)


def _open_member(path: str, member: zipfile.ZipInfo) -> IO[bytes]:
    status = os.stat(path)
    raw = _archive(path, (status.st_mtime_ns, status.st_size)).open(member)
    for hook in READ_HOOKS:  # a member counts as its compressed size, read at once
        hook(member.compress_size)
    compression = _compression(member.filename, raw)
    return _decompressing(compression, raw) if compression else raw


def shown(path: str) -> str:
    """``path`` as messages and outputs name it: the bytes of a file name that are not UTF-8 (one
    made under another encoding, such as CP1251 on Windows) as ``\\xNN``. Python keeps them as lone
    surrogates, which no UTF-8 output can write: printed, they stopped the command."""
    try:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that stands for no byte (a broken UTF-16 name, on Windows)
        return path.encode("utf-8", "backslashreplace").decode("utf-8")


def _unreadable(name: str, reason: str, path: str = "") -> Source:
    """A source that raises "``name``: ``reason``" when it is read: a bad archive met in a tree stops
    only itself. It pickles, as every source does: a worker process may be sent it to read (a file's,
    by ``path``)."""
    return Source(name, functools.partial(_fail, f"{name}: {reason}"), path)


def _fail(message: str) -> IO[bytes]:
    raise InputError(message)


# --- finding the inputs ------------------------------------------------------------------------


def iter_sources(paths: list[str] | tuple[str, ...], *, pattern: str | None = None,
                 extensions: Callable[[], tuple[str, ...]] = tuple, allow_empty: bool = False) -> Iterator[Source]:
    """The inputs named by ``paths``: ``-`` is standard input, directories are walked
    and ``.zip`` archives read like directories: their files whose name or path matches
    ``pattern`` (in any case), else those with one of the ``extensions()``, compressed or not
    (asked only there: telling them may import every notation).

    A path that does not exist, or a directory or archive named by the user that holds
    no file to read (unless ``allow_empty``), raises :class:`InputError`; a damaged archive
    gives a source whose reading raises it, so that the other inputs are still read.
    """
    for path in paths:
        if path == "-":
            yield Source(STDIN, _open_stdin)
            continue
        if not os.path.exists(path):
            raise InputError(f"{shown(path)}: no such file or directory; check the name")
        if not (os.path.isdir(path) or path.lower().endswith(".zip")):
            yield Source(shown(path), functools.partial(_open_file, path), path)
            continue
        found = False
        wanted = extensions()
        for source in _tree_sources(path, pattern, wanted) if os.path.isdir(path) \
                else _zip_sources(path, pattern, wanted):
            found = True
            yield source
        if not found and not allow_empty:
            what = f"matches --glob {pattern!r}" if pattern else f"ends with {', '.join(wanted)}"
            raise InputError(f"{shown(path)}: no file here {what}; name the files to read with --glob, e.g. '*.txt' "
                             "(or add --allow-empty to accept it)")


def _tree_sources(top: str, pattern: str | None, extensions: tuple[str, ...]) -> Iterator[Source]:
    """The files of a directory tree in a sorted walk, top first. A folder that cannot be listed, a
    link to a folder (not followed: a folder linked twice, or a loop of links, would be read again)
    and a pipe or a device (opening it could wait forever) each give a source that fails with a
    message, so that no game is left out unsaid; what macOS writes beside a file is skipped."""
    unlisted: list[OSError] = []  # the walk's errors, reported where they were met

    def failures() -> Iterator[Source]:
        while unlisted:
            error = unlisted.pop(0)
            yield _unreadable(shown(error.filename or top), f"cannot list this folder: {_reason(error)}; check that "
                                                            "you may read it, or name the files to read")

    for directory, subdirs, files in os.walk(top, onerror=unlisted.append):
        yield from failures()
        subdirs.sort()
        for name in subdirs:
            linked = os.path.join(directory, name)
            if os.path.islink(linked):
                yield _unreadable(shown(linked), "a link to a folder is not followed, so that no folder is read twice; "
                                                 "name it itself to read it")
        for filename in sorted(files):
            full = os.path.join(directory, filename)
            archive = filename.lower().endswith(".zip")
            if not (archive or _wanted(os.path.relpath(full, top).replace(os.sep, "/"), pattern, extensions)):
                continue
            if _special(full):
                yield _unreadable(shown(full), "a pipe or a device, not a file, is not read in a folder (it could wait "
                                               "forever); name it itself to read it")
            elif _apple_double(filename, functools.partial(io.FileIO, full)):
                continue
            elif archive:
                yield from _zip_sources(full, pattern, extensions)
            else:
                yield Source(shown(full), functools.partial(_open_file, full), full)
    yield from failures()


_APPLE_DOUBLE = b"\x00\x05\x16\x07"


def _apple_double(name: str, opener: Callable[[], IO[bytes]]) -> bool:
    """Whether the file ``name`` (opened by ``opener``) is what macOS writes beside a file on a disk
    or in a zip that cannot keep its attributes (``._game.ntn``, in a zip under ``__MACOSX/``): an
    AppleDouble header, no record. Skipped, it is no false finding; a record named ``._*`` is read."""
    if not name.rsplit("/", 1)[-1].startswith("._"):
        return False
    try:
        with opener() as opened:
            return opened.read(len(_APPLE_DOUBLE)) == _APPLE_DOUBLE
    except _open_errors():  # (read, it says what is wrong)
        return False


def _special(path: str) -> bool:
    """Whether ``path`` is there but is no regular file (after links): a pipe, a socket, a device."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # not there (a broken link): opening it says so
        return False


def _zip_sources(path: str, pattern: str | None, extensions: tuple[str, ...]) -> Iterator[Source]:
    import zipfile  # here only: importing it costs as much as replaying a small file

    label = shown(path)
    try:
        with zipfile.ZipFile(path) as archive:
            members = [info for info in archive.infolist()  # names may repeat
                       if not (info.is_dir() or _apple_double(info.filename, functools.partial(archive.open, info)))]
    except _open_errors() as error:
        yield _unreadable(label, f"not a readable zip archive ({_reason(error)}); check that it is complete: a "
                                 "download may have been cut short", path)
        return
    for member in members:
        name = f"{label}:{member.filename}"
        if member.filename.lower().endswith(".zip"):
            if not pattern or _wanted(member.filename, pattern, extensions):
                yield _unreadable(name, f"an archive inside an archive is not read; unpack {label} and name "
                                        f"{member.filename} itself")
        elif _wanted(member.filename, pattern, extensions):
            yield Source(name, functools.partial(_open_member, path, member))


def _wanted(path: str, pattern: str | None, extensions: tuple[str, ...]) -> bool:
    """Whether a file met in a directory or an archive is read (``path``: from there, with ``/``)."""
    lowered = path.lower()
    if pattern:
        pattern = pattern.lower()
        return fnmatch.fnmatchcase(lowered, pattern) or fnmatch.fnmatchcase(lowered.rsplit("/", 1)[-1], pattern)
    for extension in _COMPRESSED:
        lowered = lowered.removesuffix(extension)
    return lowered.endswith(extensions)
