"""An after that *passes the check* (docs/prove.md, "Passes the check"): proven as far as this machine goes.

Some checks sit above code that needs a device the proof machine has not: jax's GPU matmul kernel refuses equal
dtypes on any machine, but a call that passes that check goes on to read the GPU's ``core_count``, which a CPU
device lacks.  No after runs clean here, yet the one the search's climb found (``search_climb.py``) shows what
the check wants: its own traceback passes the raising function's check (a frame of that function below the site)
and stops at another line, on something the library's adapter names as a thing the machine lacks
(``SearchAdapter.lacks``: an ``AttributeError`` reading a device's attribute), not on this error.  The proof
stores that (``Proof.passes``) and the page says so: the after passes this check and then needs a CUDA GPU.
Parsing only: the after's traceback is the text the run printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errdex.match.traceback import parse
from errdex.model import ErrorSite
from errdex.prove.kernel_forms import kernel_form
from errdex.prove.search_adapters import search_adapter

SEP = " | "  # between the parts of ``Proof.passes``


@dataclass(frozen=True, slots=True)
class Stop:
    """Where and on what an after that passed the check stopped."""

    needs: str  # "a CUDA GPU (reads the device's `core_count`)"
    where: str  # "jax/.../hopper_mixed_type_matmul_mgpu.py:243"
    line: str  # its source: "num_sms = backend.get_default_device().core_count"

    def mark(self) -> str:
        return SEP.join((self.needs, self.where, self.line))


def exception_name(err: str) -> str:
    """The class name of the exception the traceback ends with ("AttributeError")."""
    return parse(err).exception.rsplit(".", 1)[-1]


def passed_check(site: ErrorSite, err: str) -> bool:
    """Whether the traceback ran the raising function below the site: its check passed, a later line stopped."""
    func = site.qualname.rsplit(".", 1)[-1]
    return any(f.path.endswith("/" + site.path) and f.function == func and (f.line or 0) > max(site.end_line, site.line)
               for f in parse(err).frames)


def machine_stop(package: str, site: ErrorSite, err: str) -> Stop | None:
    """The stop of an after whose traceback ``err`` passed the site's check and ended on what this machine lacks
    (the adapter's ``lacks``), or None."""
    adapter = search_adapter(package)
    parsed = parse(err)  # the traceback the after printed, read as a pasted one is (``match.traceback``)
    if adapter is None or not parsed.frames or not passed_check(site, err):
        return None
    last = parsed.frames[-1]
    file, line, src = last.path, last.line, last.code
    cls = parsed.exception.rsplit(".", 1)[-1]
    form = kernel_form(package, site.path)
    device = form.device if form is not None and form.device else "a device of another platform"
    for name, rx, needs in adapter.lacks:
        m = re.search(rx, src)
        if m and cls == name:
            where = file.split("site-packages/", 1)[-1]
            return Stop(needs=needs.format(device=device, **m.groupdict()), where=f"{where}:{line}", line=src)
    return None


def parse_mark(mark: str) -> Stop | None:
    """``Proof.passes`` back into its parts (None for "")."""
    parts = mark.split(SEP, 2)
    return Stop(*parts) if len(parts) == 3 else None
