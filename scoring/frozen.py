"""Frozen dataclasses that are cheap to build.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` (its
own ``__setattr__`` refuses), which on 3.11 costs about four times a plain store: scoring one hand
builds some 30 such objects (seats, melds, items, transfers), so that was a sixth of the time.
:func:`fast_init` gives the class an ``__init__`` with the same signature and defaults that
fills the instance's ``__dict__`` directly; the instance stays frozen afterwards.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


class _Factory:
    """The default of a field with a ``default_factory``: call the factory (shown as
    dataclasses shows it, so the signature reads the same)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def fast_init(cls: T) -> T:
    """Replace a frozen dataclass's ``__init__`` (apply above ``@dataclass(frozen=True)``)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"{cls.__name__}: fast_init is for frozen dataclasses")
    if "__slots__" in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init needs a __dict__ and no __post_init__")
    found = fields(cls)
    if len(found) != len(vars(cls)["__dataclass_fields__"]) or not all(f.init for f in found):
        raise TypeError(f"{cls.__name__}: fast_init takes init fields only (no InitVar)")
    # the generated names cannot clash with a field (a field named ``d`` once did)
    names: dict[str, Any] = {"__fast_factory": _FACTORY}
    args: list[str] = []
    body: list[str] = []
    ordered = [f for f in found if not f.kw_only] + [f for f in found if f.kw_only]
    for f in ordered:
        if f.kw_only and "*" not in args:
            args.append("*")
        if f.default is not MISSING:
            names[f"__fast_default_{f.name}"] = f.default
            args.append(f"{f.name}=__fast_default_{f.name}")
        elif f.default_factory is not MISSING:
            names[f"__fast_make_{f.name}"] = f.default_factory
            args.append(f"{f.name}=__fast_factory")
            body.append(f" if {f.name} is __fast_factory: {f.name} = __fast_make_{f.name}()")
        else:
            args.append(f.name)
    body.append(" __fast_dict = self.__dict__")
    body.extend(f" __fast_dict[{f.name!r}] = {f.name}" for f in found)
    source = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body)
    exec(source, names)  # built from field names only, as dataclasses builds its own
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    generated = vars(cls)["__init__"]  # the dataclass's own, replaced below
    init.__doc__ = generated.__doc__
    init.__annotations__ = dict(generated.__annotations__)
    cls.__init__ = init  # type: ignore[misc]
    return cls
