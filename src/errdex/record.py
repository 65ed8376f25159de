"""Frozen value classes for ``errdex explain``'s path, without importing ``dataclasses`` at run time.

``errdex explain`` runs after every uncaught exception once the hook is
installed (docs/runtime.md), so its start-up counts. ``dataclasses`` imports
``inspect`` (hence ``ast``, ``dis``, ``tokenize``): importing it and decorating
the match stage's sixteen value classes cost as much CPU as a whole
``python -c pass``. The match stage's modules import ``dataclass``, ``field``
and ``replace`` from here instead of from ``dataclasses``:

- for the type checker they *are* ``dataclasses``' (the re-export below), so
  mypy checks these classes as the dataclasses they are;
- at run time ``dataclass(frozen=True, slots=True)`` builds the same class
  ``dataclasses`` would for the subset the match stage uses: ``__slots__``,
  ``__init__`` with defaults and ``default_factory``, ``__repr__``, ``__eq__``
  and ``__hash__`` over the fields with ``compare``, ``__match_args__``, the
  frozen ``__setattr__``/``__delattr__`` (raising ``dataclasses.FrozenInstanceError``),
  pickling, ``__replace__``; anything else (``order``, inheritance between
  value classes, ``InitVar``) is refused, not approximated;
- ``dataclasses.fields``, ``asdict``, ``replace`` and ``is_dataclass`` still
  work on them (``model.to_json`` uses ``fields``): ``__dataclass_fields__`` is
  computed on first use, importing ``dataclasses`` only then.

``tests/test_record.py`` compares every generated method with ``dataclasses``' own.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Field:
    """A field's options, as ``dataclasses.field`` takes them (the subset the match stage uses)."""

    __slots__ = ("compare", "default", "default_factory", "repr")

    def __init__(self, default: Any, default_factory: Any, compare: bool, repr: bool) -> None:
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr


def frozen_field(*, default: Any = MISSING, default_factory: Any = MISSING, compare: bool = True,
                 repr: bool = True) -> Any:
    """``dataclasses.field`` for ``frozen_class``."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, compare, repr)


def frozen_class(cls: type | None = None, /, *, frozen: bool = False, slots: bool = False) -> Any:
    """``dataclasses.dataclass(frozen=True, slots=True)``, and only that."""
    if not (frozen and slots):
        raise TypeError("errdex.record.dataclass builds frozen=True, slots=True classes only")
    return _build if cls is None else _build(cls)


def frozen_replace(obj: Any, /, **changes: Any) -> Any:
    """``dataclasses.replace`` of a ``frozen_class`` instance (or of a dataclass)."""
    method = getattr(type(obj), "__replace__", None)
    if method is None:
        import dataclasses

        return dataclasses.replace(obj, **changes)
    return method(obj, **changes)


class _LazyFields:
    """``__dataclass_fields__``: real ``dataclasses.Field`` objects, made when first asked for."""

    def __init__(self, specs: dict[str, Field], annotations: dict[str, Any]) -> None:
        self.specs = specs
        self.annotations = annotations
        self.fields: dict[str, Any] | None = None

    def __get__(self, obj: object, owner: type) -> dict[str, Any]:
        if self.fields is None:
            import dataclasses

            def real(spec: Field) -> Any:
                given = {"default": spec.default, "default_factory": spec.default_factory}
                return dataclasses.field(**{k: v for k, v in given.items() if v is not MISSING},
                                         compare=spec.compare, repr=spec.repr)

            shadow = dataclasses.make_dataclass(owner.__name__, [
                (name, self.annotations[name], real(spec)) for name, spec in self.specs.items()], frozen=True)
            self.fields = {f.name: f for f in dataclasses.fields(shadow)}
        return self.fields


def _frozen_error(message: str) -> AttributeError:
    import dataclasses

    return dataclasses.FrozenInstanceError(message)


_GENERATED = frozenset({"__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__getstate__",
                        "__setstate__", "__replace__"})


def _build(cls: type) -> type:
    for base in cls.__mro__[1:-1]:
        if "__dataclass_fields__" in base.__dict__ or "__annotations__" in base.__dict__:
            raise TypeError(f"{cls.__qualname__}: value classes that inherit fields are not supported here")
    own = _GENERATED.intersection(cls.__dict__)
    if own:
        raise TypeError(f"{cls.__qualname__} defines {sorted(own)}: not supported here")
    annotations: dict[str, Any] = dict(cls.__annotations__)
    specs: dict[str, Field] = {}
    for name, ann in annotations.items():
        if not isinstance(ann, str) or ann.startswith(("ClassVar", "typing.ClassVar", "InitVar", "dataclasses.")):
            raise TypeError(f"{cls.__qualname__}.{name}: only plain fields (string annotations) are supported")
        value = cls.__dict__.get(name, MISSING)
        spec = value if isinstance(value, Field) else Field(value, MISSING, True, True)
        if spec.default_factory is MISSING and isinstance(spec.default, (list, dict, set)):
            raise ValueError(f"mutable default {type(spec.default)} for field {name} is not allowed: use default_factory")
        if specs and spec.default is MISSING and spec.default_factory is MISSING and any(
                s.default is not MISSING or s.default_factory is not MISSING for s in specs.values()):
            raise TypeError(f"non-default argument {name!r} follows default argument")
        specs[name] = spec
    names = tuple(specs)
    namespace = {k: v for k, v in cls.__dict__.items() if k not in specs and k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = names
    namespace["__match_args__"] = names
    new = type(cls)(cls.__name__, cls.__bases__, namespace)
    new.__qualname__ = cls.__qualname__
    methods = {"__init__": _init(names, specs), **_methods(new, names, specs)}
    for name, function in methods.items():
        function.__qualname__ = f"{new.__qualname__}.{name}"
        function.__module__ = new.__module__
        setattr(new, name, function)
    new.__dataclass_fields__ = _LazyFields(specs, annotations)  # type: ignore[attr-defined]
    return new


def _init(names: tuple[str, ...], specs: dict[str, Field]) -> Callable[..., None]:
    """``__init__`` with the fields as parameters: the one generated source (a class's few lines
    compile in a few microseconds a field; the other methods are closures, compiling nothing)."""
    env: dict[str, Any] = {"_set": object.__setattr__, "MISSING": MISSING}
    params, body = [], []
    for name, spec in specs.items():
        if spec.default_factory is not MISSING:
            env[f"_factory_{name}"] = spec.default_factory
            params.append(f"{name}=MISSING")
            body.append(f" _set(self, {name!r}, _factory_{name}() if {name} is MISSING else {name})")
        else:
            if spec.default is not MISSING:
                env[f"_default_{name}"] = spec.default
            params.append(name if spec.default is MISSING else f"{name}=_default_{name}")
            body.append(f" _set(self, {name!r}, {name})")
    source = "\n".join([f"def __init__(self, {', '.join(params)}):", *(body or [" pass"])])
    exec(source, env)
    init: Callable[..., None] = env["__init__"]
    return init


def _methods(cls: type, names: tuple[str, ...], specs: dict[str, Field]) -> dict[str, Callable[..., Any]]:
    """The other methods ``dataclasses`` writes for a frozen class, as closures over its fields."""
    from operator import attrgetter

    def getter(fields: list[str]) -> Callable[[Any], tuple[Any, ...]]:
        if len(fields) == 1:
            one = attrgetter(fields[0])
            return lambda obj: (one(obj),)
        return attrgetter(*fields) if fields else lambda obj: ()

    compared = getter([n for n, s in specs.items() if s.compare])
    every = getter(list(names))
    shown = tuple((n, attrgetter(n)) for n, s in specs.items() if s.repr)
    fields = frozenset(names)
    setter = object.__setattr__

    def __eq__(self: Any, other: Any) -> Any:
        if self is other:
            return True
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(compared(self))

    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={get(self)!r}' for n, get in shown)})"

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in fields:
            raise _frozen_error(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)  # what super() would reach: no base defines it

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in fields:
            raise _frozen_error(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    def __getstate__(self: Any) -> list[Any]:
        return list(every(self))

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            setter(self, name, value)

    def __replace__(self: Any, /, **changes: Any) -> Any:
        return self.__class__(**{**dict(zip(names, every(self), strict=True)), **changes})

    return {"__eq__": __eq__, "__hash__": __hash__, "__repr__": __repr__, "__setattr__": __setattr__,
            "__delattr__": __delattr__, "__getstate__": __getstate__, "__setstate__": __setstate__,
            "__replace__": __replace__}


if TYPE_CHECKING:  # the type checker sees ``dataclasses`` itself
    from dataclasses import dataclass as dataclass
    from dataclasses import field as field
    from dataclasses import replace as replace
else:
    dataclass, field, replace = frozen_class, frozen_field, frozen_replace
