"""``no_site`` names no origin for an answer that reads the message exactly (``where.no_site``).

pamqp 4.0.1 (round 41) raises ``ValueError('ticket must be 0')`` in twelve ``validate`` methods: with the message
alone the answer is their tied group, not confident, and the command line went on to say "no raise site of the
indexed libraries produced this error: no raise site of the indexed libraries matches the message", which every
line of the group contradicts.  A message no template reads still gets that verdict."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

COMMANDS = '''
class BasicConsume:
    def __init__(self, ticket=0, queue=""):
        self.ticket = ticket
        self.queue = queue

    def validate(self):
        if self.ticket is not None and self.ticket != 0:
            raise ValueError("ticket must be 0")


class BasicGet:
    def __init__(self, ticket=0, queue=""):
        self.ticket = ticket

    def validate(self):
        if self.ticket is not None and self.ticket != 0:
            raise ValueError("ticket must be 0")


class QueueDeclare:
    def __init__(self, ticket=0, queue=""):
        self.ticket = ticket
        self.queue = queue

    def validate(self):
        if self.ticket is not None and self.ticket != 0:
            raise ValueError("ticket must be 0")
        if len(self.queue) > 256:
            raise ValueError("queue name must not exceed 256 characters")
'''


@pytest.fixture(scope="module")
def amqp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "nositeverdict", "amqplike",
                               {"__init__.py": "", "commands.py": COMMANDS})


def test_a_tied_group_of_exact_readings_is_no_no_site_verdict(amqp: Catalog) -> None:
    r = explain(amqp, "ticket must be 0")
    top = r.matches[0]
    assert top.method == "exact" and top.tied_count == 2 and not r.confident
    assert r.no_site is None


def test_a_message_no_template_reads_still_has_no_site(amqp: Catalog) -> None:
    r = explain(amqp, "connection reset by peer while reading the frame header")
    assert not r.confident and r.no_site is not None
    assert r.no_site.reason == "no raise site of the indexed libraries matches the message"
