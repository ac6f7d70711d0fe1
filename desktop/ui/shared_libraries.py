"""Which shared libraries an ELF file needs, and whether the dynamic loader will find them.

Read straight from the files, without loading anything: the `NEEDED` and `RUNPATH`
entries of an object's dynamic section, and the loader's own search (LD_LIBRARY_PATH,
the directories of /etc/ld.so.conf that its cache is built from, then the system
directories). A candidate counts only if it is an ELF file of this process's class and
machine, as the loader requires: an empty or foreign file in its place is as good as
missing. Linux only; nothing here imports Qt, so it can run before Qt is loaded.
"""

from __future__ import annotations

import glob
import os
import struct
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_PT_LOAD, _PT_DYNAMIC = 1, 2
_DT_NEEDED, _DT_STRTAB, _DT_STRSZ, _DT_RPATH, _DT_RUNPATH = 1, 5, 10, 15, 29


_ELF_HEAD = 20  # e_ident (16 bytes), e_type and e_machine (2 each)
_ELFCLASS32 = 1
_ELFCLASS64 = 2
_ELFDATA2LSB = 1  # little-endian
_ELFDATA2MSB = 2


@dataclass(frozen=True, slots=True)
class ElfKind:
    """What the loader compares: 32/64-bit, byte order and machine."""

    elf_class: int
    little_endian: bool
    machine: int


@dataclass(frozen=True, slots=True)
class Dynamic:
    needed: tuple[str, ...]
    search: tuple[str, ...]  # RUNPATH (or RPATH) entries, `$ORIGIN` not yet expanded


def elf_kind(head: bytes) -> ElfKind | None:
    """The kind of an ELF file from its first 20 bytes; None when it is not one."""
    if (
        len(head) < _ELF_HEAD
        or head[:4] != b"\x7fELF"
        or head[4] not in (_ELFCLASS32, _ELFCLASS64)
        or head[5] not in (_ELFDATA2LSB, _ELFDATA2MSB)
    ):
        return None
    little = head[5] == _ELFDATA2LSB
    machine = struct.unpack_from("<H" if little else ">H", head, 18)[0]
    return ElfKind(head[4], little, machine)


def dynamic_section(path: Path) -> Dynamic:
    """The `NEEDED` and search entries of `path`; raises OSError or ValueError for a file
    that cannot be read as ELF. Reads only the headers and the tables they point to."""
    with open(path, "rb") as file:
        kind = elf_kind(file.read(64))
        if kind is None:
            raise ValueError(f"{path} is not an ELF file")
        order = "<" if kind.little_endian else ">"
        wide = kind.elf_class == _ELFCLASS64
        file.seek(0)
        header = file.read(64)
        if wide:
            (phoff,) = struct.unpack_from(order + "Q", header, 32)
            phentsize, phnum = struct.unpack_from(order + "HH", header, 54)
            program = order + "IIQQQQQQ"  # type, flags, offset, vaddr, paddr, filesz...
        else:
            (phoff,) = struct.unpack_from(order + "I", header, 28)
            phentsize, phnum = struct.unpack_from(order + "HH", header, 42)
            program = order + "IIIIIIII"  # type, offset, vaddr, paddr, filesz, ...
        loads: list[tuple[int, int, int]] = []  # vaddr, size, file offset
        dynamic: tuple[int, int] | None = None
        for index in range(phnum):
            file.seek(phoff + index * phentsize)
            fields = struct.unpack(program, file.read(struct.calcsize(program)))
            if wide:
                p_type, _flags, offset, vaddr, _paddr, filesz = fields[:6]
            else:
                p_type, offset, vaddr, _paddr, filesz = fields[:5]
            if p_type == _PT_LOAD:
                loads.append((vaddr, filesz, offset))
            elif p_type == _PT_DYNAMIC:
                dynamic = (offset, filesz)
        if dynamic is None:
            return Dynamic((), ())
        file.seek(dynamic[0])
        raw = file.read(dynamic[1])
        entry = struct.Struct(order + ("qQ" if wide else "iI"))
        tags = [
            entry.unpack_from(raw, at) for at in range(0, len(raw) - entry.size + 1, entry.size)
        ]
        values = dict((tag, value) for tag, value in tags if tag in (_DT_STRTAB, _DT_STRSZ))
        strtab = _file_offset(loads, values.get(_DT_STRTAB, 0))
        file.seek(strtab)
        strings = file.read(values.get(_DT_STRSZ, 0))

    def text(offset: int) -> str:
        return strings[offset : strings.index(b"\0", offset)].decode("utf-8", "replace")

    needed = tuple(text(v) for tag, v in tags if tag == _DT_NEEDED)
    runpath = [text(v) for tag, v in tags if tag == _DT_RUNPATH]
    rpath = [text(v) for tag, v in tags if tag == _DT_RPATH]
    search = ":".join(runpath or rpath)
    return Dynamic(needed, tuple(p for p in search.split(":") if p))


def _file_offset(loads: Sequence[tuple[int, int, int]], vaddr: int) -> int:
    for start, size, offset in loads:
        if start <= vaddr < start + size:
            return offset + vaddr - start
    return vaddr  # a file mapped at 0: addresses are offsets


def _conf_directories(conf: Path, seen: set[Path]) -> list[str]:
    """The directories /etc/ld.so.conf names, its `include` files included."""
    if conf in seen:
        return []
    seen.add(conf)
    try:
        lines = conf.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    found: list[str] = []
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if line.startswith("include "):
            pattern = line.split(None, 1)[1]
            if not os.path.isabs(pattern):
                pattern = str(conf.parent / pattern)
            for included in sorted(glob.glob(pattern)):
                found += _conf_directories(Path(included), seen)
        elif line:
            found.append(line)
    return found


def system_directories() -> list[str]:
    """The loader's own default directories (multiarch first, as Debian builds it)."""
    triplet = getattr(sys.implementation, "_multiarch", "")
    base = ["/lib64", "/usr/lib64", "/lib", "/usr/lib"]
    if triplet:
        base = [f"/lib/{triplet}", f"/usr/lib/{triplet}", *base]
    return base


class LibraryResolver:
    """Finds a library by its soname the way the dynamic loader does, for objects of
    `kind` (this interpreter's, by default)."""

    def __init__(self, directories: Sequence[str], kind: ElfKind | None = None) -> None:
        self._directories = tuple(dict.fromkeys(d for d in directories if d))
        self._kind = kind if kind is not None else _own_kind()

    @classmethod
    def for_this_system(cls, environ: Mapping[str, str] = os.environ) -> LibraryResolver:
        library_path = environ.get("LD_LIBRARY_PATH", "").split(":")
        configured = _conf_directories(Path("/etc/ld.so.conf"), set())
        return cls([*library_path, *configured, *system_directories()])

    def find(self, soname: str, first: Iterable[str] = ()) -> str | None:
        """Where `soname` would be loaded from, trying `first` (an object's RUNPATH,
        expanded) before the loader's directories; None when it would not load."""
        for directory in (*first, *self._directories):
            candidate = os.path.join(directory, soname)
            if self._usable(candidate):
                return candidate
        return None

    def _usable(self, candidate: str) -> bool:
        try:
            descriptor = os.open(candidate, os.O_RDONLY)
        except OSError:
            return False
        try:
            return elf_kind(os.read(descriptor, 20)) == self._kind
        except OSError:
            return False
        finally:
            os.close(descriptor)


def _own_kind() -> ElfKind | None:
    try:
        with open(sys.executable, "rb") as file:
            return elf_kind(file.read(20))
    except OSError:
        return None
