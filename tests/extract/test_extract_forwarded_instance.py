"""A caught text raised again under the package's class, the ``try`` body calling a module-level instance's
method (json2xml 8.0.0, round 41: ``Json2xml.to_xml`` does ``try: dicttoxml.dicttoxml(...)`` / ``except
(ValueError, TypeError) as error: raise InvalidDataError(str(error)) from error``; ``dicttoxml_fast.dicttoxml``
calls ``_BACKEND_SELECTOR.render(request)``, ``_BACKEND_SELECTOR = BackendSelector(...)`` at module level, whose
``render`` runs ``backend.render(request)`` for each backend it holds): the instance's call is its class's
method (``calls._module_instances``) and a method delegating to its parts' method of its own name reaches each
of them at any depth (``forwarded._Graph.reach``), so the re-raise carries the backends' texts."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.extract.calls import call_edges
from errdex.model import ExtractResult

SELECTOR = '''
    from __future__ import annotations


    class BackendSelector:
        """Pick the first backend that can preserve request semantics."""

        def __init__(self, *backends) -> None:
            self._backends = backends

        def render(self, request) -> bytes:
            for backend in self._backends:
                if backend.can_handle(request):
                    return backend.render(request)
            raise RuntimeError("No XML backend can handle the requested conversion")
'''

RENDERERS = '''
    from __future__ import annotations


    def _check(codepoint: int) -> None:
        if codepoint < 0x20:
            raise ValueError(f"Character U+{codepoint:04X} is not allowed in XML 1.0")


    def _escape(text: str) -> str:
        return text.replace("&", "&amp;").replace("<", "&lt;")


    class _ListRenderer:
        def render(self, items) -> str:
            return "".join(f"<item>{_escape(str(i))}</item>" for i in items)


    class _DictRenderer:
        def render(self, mapping) -> str:
            return "".join(f"<{k}>{_escape(str(v))}</{k}>" for k, v in mapping.items())


    class _AttrRenderer:
        def render(self, attrs) -> str:
            return " ".join(f'{k}="{_escape(str(v))}"' for k, v in attrs.items())


    class _ScalarRenderer:
        def render(self, value) -> str:
            for ch in str(value):
                _check(ord(ch))
            return str(value)


    class _DocumentRenderer:
        def render(self, request) -> bytes:
            return _ScalarRenderer().render(request).encode()
'''

FAST = '''
    from __future__ import annotations

    from .selector import BackendSelector
    from .renderers import _DocumentRenderer


    class _RustBackend:
        def can_handle(self, request) -> bool:
            return isinstance(request, str)

        def render(self, request) -> bytes:
            out = request.encode()
            if len(out) > 1000:
                raise ValueError("XML output size limit exceeded")
            return out


    class _PythonBackend:
        def can_handle(self, request) -> bool:
            return True

        def render(self, request) -> bytes:
            return _DocumentRenderer().render(request)


    _BACKEND_SELECTOR = BackendSelector(_RustBackend(), _PythonBackend())


    def dicttoxml(obj) -> bytes:
        return _BACKEND_SELECTOR.render(obj)
'''

CONVERT = '''
    from __future__ import annotations

    from . import fast as dicttoxml


    class InvalidDataError(Exception):
        pass


    class Json2xml:
        def __init__(self, data) -> None:
            self.data = data

        def to_xml(self) -> bytes:
            try:
                xml_data = dicttoxml.dicttoxml(self.data)
            except (ValueError, TypeError) as error:
                raise InvalidDataError(str(error)) from error
            return xml_data
'''


def _extract(tmp_path: Path) -> ExtractResult:
    pkg = tmp_path / "jx"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    for name, src in (("selector", SELECTOR), ("renderers", RENDERERS), ("fast", FAST), ("convert", CONVERT)):
        (pkg / f"{name}.py").write_text(textwrap.dedent(src))
    return extract_dir(tmp_path)


def test_reraise_carries_the_texts_a_module_instance_reaches(tmp_path: Path) -> None:
    site = site_in(_extract(tmp_path), "jx/convert.py", "Json2xml.to_xml")
    texts = [t.render() for t in site.templates]
    assert texts[0] == "{error}"
    assert "XML output size limit exceeded" in texts
    assert any(t.startswith("Character U+") for t in texts)  # through the selector, then `_PythonBackend.render`


def test_module_instance_call_is_its_class_method() -> None:
    import ast

    edges = call_edges(ast.parse(textwrap.dedent(FAST)), "jx.fast", "jx/fast.py")
    callees = {e.callee for e in edges if e.caller == "jx.fast.dicttoxml" and e.kind == "call"}
    assert "jx.selector.BackendSelector.render" in callees


def test_a_name_bound_twice_is_no_known_instance() -> None:
    import ast

    src = textwrap.dedent(FAST) + "\nif True:\n    _BACKEND_SELECTOR = BackendSelector(_PythonBackend())\n"
    edges = call_edges(ast.parse(src), "jx.fast", "jx/fast.py")
    callees = {e.callee for e in edges if e.caller == "jx.fast.dicttoxml" and e.kind == "call"}
    assert "jx.selector.BackendSelector.render" not in callees
