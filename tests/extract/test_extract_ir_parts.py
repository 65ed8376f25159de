"""The message IR's one walk over the nodes a node is made of (``parts_of``, ``reaches``, ``with_parts``),
which ``heldclasses`` (``holds_any``/``with_held``), ``classdocs`` (``reads_doc``/``with_doc``) and
``param_names`` share."""

from __future__ import annotations

from errdex.extract import ir
from errdex.extract.classdocs import reads_doc, with_doc
from errdex.extract.heldclasses import HOLDS, holds_any
from errdex.extract.ir import Alt, Cat, Dedent, Hole, Lit, Node, Param, Ref

MSG = Hole("msg")
NOTE = Param("note")
CALL = Ref(target="pkg.errors.SchemaError", src="Error(msg, note=note)", callee="Error", args=(MSG,),
           kwargs=(("note", NOTE),), item=(Lit("key"),), edited=Lit("edited"))


def test_parts_of_each_kind() -> None:
    assert ir.parts_of(Cat((Lit("a "), MSG))) == (Lit("a "), MSG)
    assert ir.parts_of(Alt((Lit("a"), Lit("b")))) == (Lit("a"), Lit("b"))
    assert ir.parts_of(Dedent(MSG, "strip")) == (MSG,)
    # a call's arguments, positional then keyword values; its table key and edited text are not its parts
    assert ir.parts_of(CALL) == (MSG, NOTE)
    assert ir.parts_of(MSG) == ir.parts_of(NOTE) == ir.parts_of(Lit("x")) == ()


def test_reaches_stops_at_the_limit() -> None:
    deep: Node = MSG
    for _ in range(5):
        deep = Cat((Lit("x"), deep))

    def is_msg(n: Node) -> bool:
        return n == MSG

    assert ir.reaches(deep, is_msg, limit=5)
    assert not ir.reaches(deep, is_msg, limit=4)
    assert not ir.reaches(Ref(target="f", src="f()", item=(MSG,)), is_msg, limit=5)  # an item is no part


def test_with_parts_keeps_the_kind_and_the_node_when_unchanged() -> None:
    def upper(n: Node) -> Node:
        return Lit(n.text.upper()) if isinstance(n, Lit) else n

    same = Alt((Lit("A"), Lit("A")))
    assert ir.with_parts(Alt((Lit("a"), Lit("A"))), upper) == same  # options not merged: ``alt`` is the caller's
    assert ir.with_parts(Dedent(Lit("a"), "strip"), upper) == Dedent(Lit("A"), "strip")
    ref = Ref(target="f", src="f('a')", args=(Lit("a"),), kwargs=(("k", Lit("b")),))
    assert ir.with_parts(ref, upper) == Ref(target="f", src="f('a')", args=(Lit("A"),), kwargs=(("k", Lit("B")),))
    unchanged = Ref(target="f", src="f(x)", args=(MSG,))
    assert ir.with_parts(unchanged, upper) is unchanged
    assert ir.with_parts(MSG, upper) is MSG


def test_holds_and_docs_and_params_walk_the_same_parts() -> None:
    held = Ref(target="pkg.Metadata.<holds>metadata_Error", src="Error(note=note)", callee=HOLDS)
    wrapped = Ref(target="pkg.FrictionlessException", src="FrictionlessException(Error(note=note))",
                  args=(Alt((Lit("x"), Dedent(held, "strip"))),))
    assert holds_any(wrapped)
    assert not holds_any(Ref(target="f", src="f()", item=(held,)))
    doc = Cat((Hole("exc.__doc__"), Lit(" ["), Hole("code"), Lit("]")))
    assert reads_doc(Ref(target="exc", src="exc(msg)", kwargs=(("m", doc),)), "exc")
    assert not reads_doc(doc, "other")
    assert with_doc(Alt((doc, doc)), "exc", "Unknown exit code") \
        == Alt((Cat((Lit("Unknown exit code"), Lit(" ["), Hole("code"), Lit("]"))),) * 2)
    assert ir.param_names(Ref(target="f", src="exc_type(msg)", param="exc_type", args=(Cat((NOTE, MSG)),))) \
        == {"exc_type", "note"}
