"""A mutable working copy of an immutable state, for the inside of ``apply``.

States are frozen dataclasses; building the next one field by field with
``dataclasses.replace`` after every small change is slow.  A :class:`Draft` copies the frozen
object's fields once (one C-level dict copy), takes any number of plain attribute writes, and
:meth:`Draft.freeze_as` turns it back into a frozen object the same way.  The frozen class
must keep a ``__dict__`` (a frozen dataclass *without* ``slots=True``); :func:`check_draftable`
says so at import time instead of failing later.

Nothing here is generated with ``exec``: the copies are ``dict.update`` calls.  A game's draft
subclasses :class:`Draft` and keeps its own bookkeeping in ``__slots__``, so the fields and the
bookkeeping never mix.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__


def check_draftable(cls: type) -> tuple[str, ...]:
    """The field names of ``cls``; raises TypeError unless it is a dataclass with a ``__dict__``
    (a draft copies its fields through the instance dictionary)."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass")
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} uses __slots__; a draft needs its __dict__")
    return tuple(f.name for f in fields(cls))


class Draft:
    """A mutable copy of a frozen dataclass instance: read and write its fields as attributes,
    then :meth:`freeze_as` the frozen class.  The original is never touched."""

    __slots__ = ("__dict__",)

    def __init__(self, frozen: Any) -> None:
        self.__dict__.update(frozen.__dict__)

    def freeze_as(self, cls: type[T]) -> T:
        """A new frozen ``cls`` holding the draft's fields (built without ``__init__``, since
        every field was checked when the original was made)."""
        out = _new(cls)
        out.__dict__.update(self.__dict__)
        return out


def thaw(frozen: Any, draft_cls: type[Draft]) -> Any:
    """A draft of class ``draft_cls`` (a Draft subclass) copying ``frozen``, built without
    calling ``draft_cls.__init__`` (for subclasses whose ``__init__`` does more)."""
    d = _new(draft_cls)
    d.__dict__.update(frozen.__dict__)
    return d
