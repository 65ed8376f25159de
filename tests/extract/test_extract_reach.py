"""Messages that live somewhere else than the raise: one small inline package per mechanism.

Each test writes a package, extracts it inline and checks the templates of one site; every
case was unresolved (a lone ``{expr}`` placeholder) before its mechanism existed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.model import ErrorSite, ExtractResult


def _extract(tmp_path: Path, files: dict[str, str]) -> ExtractResult:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (tmp_path / "pkg" / "__init__.py").touch()
    return extract_dir(tmp_path)


def _site(result: ExtractResult, qualname: str, index: int = 0) -> ErrorSite:
    found = sorted((s for s in result.sites if s.qualname == qualname), key=lambda s: (s.path, s.line))
    assert len(found) > index, f"no site #{index} in {qualname}: {[(s.path, s.qualname) for s in result.sites]}"
    return found[index]


def _rendered(site: ErrorSite) -> list[str]:
    return [t.render() for t in site.templates]


def test_format_of_a_receiver_that_already_holds_placeholders(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        def check_unique(op_name, perm):
            msg = f"{op_name} sources and destinations must be unique, got {{}}."
            raise ValueError(msg.format(perm))


        def check_args(fun_name, pos):
            msg = f"{fun_name} requires array arguments at position {pos}."
            raise TypeError(msg.format(fun_name, pos))


        def own_braces(prefix):
            raise ValueError((prefix + " got {}").format(1))
    '''})
    unique = _site(result, "check_unique")
    assert _rendered(unique) == ["{op_name} sources and destinations must be unique, got {perm}."]
    assert unique.unresolved == ()
    # no field in the literal runs: .format leaves the text as it is
    assert _rendered(_site(result, "check_args")) == ["{fun_name} requires array arguments at position {pos}."]
    # text of unknown content may hold braces of its own: still unresolved
    assert _site(result, "own_braces").unresolved == ('(prefix + " got {}").format(1)',)


def test_lambdas_and_bound_format_methods_called_like_helpers(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        _too_many = """
        The function was called with {} arguments, but takes one.
        """.format

        missing = lambda name: f"the option {name} is missing from the config"


        def check_scalar(x, aval):
            msg = "Gradient only defined for scalar-output functions. Output {}.".format
            if x:
                raise TypeError(msg(f"had shape: {aval.shape}"))
            raise TypeError(_too_many(len(x)))


        def pad(axis_size):
            error_msg = lambda: f"the axis size (= {axis_size}) is larger than 1"
            raise ValueError(error_msg())


        def option(name):
            raise KeyError(missing(name))


        def grad(mode):
            unimplemented = lambda fn_name, m: NotImplementedError(f"Unimplemented {fn_name} in mode {m.name}.")

            def grad_x_dims():
                raise unimplemented("grad_x_dims", mode)
            return grad_x_dims
    '''})
    scalar = _site(result, "check_scalar")
    assert _rendered(scalar) == ["Gradient only defined for scalar-output functions. Output had shape: {aval.shape}."]
    assert _rendered(_site(result, "check_scalar", 1)) == ["\nThe function was called with {len(x)} arguments, but takes one.\n"]
    assert _rendered(_site(result, "pad")) == ["the axis size (= {axis_size}) is larger than 1"]
    assert _rendered(_site(result, "option")) == ["'the option {name} is missing from the config'"]
    nested = _site(result, "grad.<locals>.grad_x_dims")
    assert _rendered(nested) == ["Unimplemented grad_x_dims in mode {m.name}."]  # attributes of a parameter stay
    assert (nested.exception, nested.exception_resolved) == ("NotImplementedError", "NotImplementedError")


def test_assignment_expression_in_a_test_binds_the_message(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        def _forgot_tuple(name, shape, dtype):
            if isinstance(dtype, int) and isinstance(shape, int):
                return f"Cannot interpret '{dtype}' as a data type. Did you mean {name}(({shape}, {dtype}))?"


        def zeros(shape, dtype=None):
            if (m := _forgot_tuple("zeros", shape, dtype)):
                raise TypeError(m)


        def _describe(queue):
            if queue:
                return f"the queue still holds {len(queue)} jobs"


        def drain(queue):
            while (problem := _describe(queue)) is not None:
                raise RuntimeError("cannot drain: " + problem)
    '''})
    assert _rendered(_site(result, "zeros")) == [
        "Cannot interpret '{dtype}' as a data type. Did you mean zeros(({shape}, {dtype}))?"]
    assert _rendered(_site(result, "drain")) == ["cannot drain: the queue still holds {len(queue)} jobs"]
