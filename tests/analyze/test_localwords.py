"""A check on a value the library works out itself is said in words, never by the local's name (rating 5:
``is_squeezed``, ``writer``, ``bytes_to_be_read`` on pages 7554, ad70, eb3a); the call's own parameters
keep their code form."""

from __future__ import annotations

from errdex.analyze.static.localwords import in_words, spelled


def test_locals_are_spelled_out_and_parameters_stay_code() -> None:
    assert spelled("bytes_to_be_read") == "bytes to be read" and spelled("binaryWriter") == "binary writer"
    assert in_words("`any(is_squeezed)` returns a true value", {"is_squeezed"}) == \
        "one of the “is squeezed” values is true"
    assert in_words("`writer` is None", {"writer"}) == "the writer is None"
    assert in_words("`bytes_to_be_read` is odd", {"bytes_to_be_read"}) == "the bytes to be read is odd"
    assert in_words("`len(parts)` is less than `2`", {"parts"}) == "the number of “parts” values is less than `2`"
    # a parameter of the call is what the user passes: kept as code
    assert in_words("`idxs` is empty and `writer` is None", {"writer"}) == "`idxs` is empty and the writer is None"
    # a private attribute of a local is not spelled out as if it were public
    assert in_words("`ref._x` is set", {"ref"}) == "`ref._x` is set"


def test_a_class_named_in_the_check_stays_and_a_participle_reads_as_a_value() -> None:
    # rating 5 page a1ee: ``guessed`` is a subclass of ``ParamType``
    assert in_words("`guessed` is a subclass of a `ParamType`", {"guessed", "ParamType"}) == \
        "the guessed value is a subclass of a `ParamType`"


def test_a_class_attribute_and_an_abbreviation_stay_code() -> None:
    # rating 5 page a28d: ``reg_ty`` is not an ``ir.VectorType`` (``ir`` is a module, ``VectorType`` a class)
    assert in_words("`reg_ty` is not an `ir.VectorType`", {"reg_ty", "ir"}) == "`reg_ty` is not an `ir.VectorType`"


def test_a_local_a_finder_helper_returned_is_said_as_what_it_finds() -> None:
    # rating 12 (ad70): "raises when the writer is None" is internal jargon; the helper's name says what it looks for
    from errdex.analyze.static.localwords import found_by

    snippet = ("def get_binary_stderr():\n    writer = _find_binary_writer(sys.stderr)\n    if writer is None:\n"
               "        raise RuntimeError('x')\n")
    found = found_by(snippet, {"writer"})
    assert found == {"writer": "binary writer"}
    assert in_words("`writer` is None", {"writer"}, found) == "it finds no binary writer"
    # a local from any other call keeps the plain words
    assert found_by("    writer = open_writer(sys.stderr)\n", {"writer"}) == {}
    assert in_words("`writer` is None", {"writer"}) == "the writer is None"
