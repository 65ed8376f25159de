"""Capture real error events by running a library's own tests (the data of ``match_eval.py``).

Runs each test file of a library's test suite in a separate environment that
has the library installed (never errdex's venv: the library is executed there,
which errdex itself never does), with ``bench/capture_plugin.py`` loaded, and
concatenates what the plugin records into one JSONL file under ``bench/data/``.

Reproduce the committed JAX data set::

    $(pyenv root)/versions/3.13.0/bin/python3 -m venv /work/evalenv
    /work/evalenv/bin/pip install jax==0.10.2 jaxlib==0.10.2 pytest absl-py
    .venv/bin/python bench/capture_events.py --python /work/evalenv/bin/python \\
        --tests /work/jax-src/tests --package jax --out bench/data/jax-0.10.2.jsonl \\
        --budget 240 api_test.py errors_test.py ...

SQLAlchemy's suite needs its own configuration (``setup.cfg``'s ``[db]``), so it runs
from the unpacked sdist with the plugin loaded directly (the plugin hooks its
``expect_raises``/``assert_raises_message``)::

    $(pyenv root)/versions/3.13.0/bin/python3 -m venv /work/evalenv-sa
    /work/evalenv-sa/bin/pip install sqlalchemy==2.1.9 pytest
    pip download --no-deps --no-binary :all: sqlalchemy==2.1.9 && tar xzf sqlalchemy-2.1.9.tar.gz
    cd sqlalchemy-2.1.9 && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/sqlalchemy-2.1.9.jsonl \
        CAPTURE_PACKAGE=sqlalchemy /work/evalenv-sa/bin/python -m pytest -q -p capture_plugin \
        -p no:cacheprovider -W ignore test/base test/engine test/sql test/orm/test_mapper.py \
        test/orm/test_query.py test/orm/test_session.py test/orm/test_relationships.py \
        test/orm/test_core_compilation.py test/orm/declarative test/ext/test_hybrid.py \
        test/ext/test_associationproxy.py

SymPy's bundled tests run from the installed package the same way (``sympy==1.14.0
pytest hypothesis`` in ``/work/evalenv-sympy``; its ``raises`` is pytest's)::

    cd /tmp && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/sympy-1.14.0.jsonl \
        CAPTURE_PACKAGE=sympy timeout 900 /work/evalenv-sympy/bin/python -m pytest -q -p capture_plugin \
        -p no:cacheprovider -W ignore --rootdir=$SP --import-mode=importlib $SP/core/tests \
        $SP/calculus/tests $SP/sets/tests $SP/functions $SP/matrices/tests/test_matrices.py \
        $SP/solvers/tests/test_solvers.py $SP/polys/tests/test_polytools.py $SP/series/tests \
        $SP/integrals/tests/test_integrals.py $SP/simplify/tests $SP/utilities/tests $SP/tensor/tests

(``SP`` = the installed ``sympy`` directory.)  pandas 3.1.1 likewise (``pandas==3.1.1 pytest
hypothesis`` in ``/work/evalenv-pd``, ``PD`` = the installed ``pandas``), with the test paths
``$PD/tests/frame/methods $PD/tests/series/methods $PD/tests/indexing $PD/tests/reshape
$PD/tests/dtypes $PD/tests/arrays/categorical $PD/tests/tools $PD/tests/scalar
$PD/tests/indexes/test_base.py $PD/tests/groupby/test_groupby.py`` and ``--maxfail=100000``.

The fourth round's held-out sets (issue 17; docs/matching.md, "Honest groups"), in one venv
(``pip install boltons==26.2.0 pyparsing==3.3.3 voluptuous==0.16.0 wtforms==3.3.2 pytest babel
email_validator``) with each sdist unpacked; boltons and voluptuous through this driver::

    .venv/bin/python bench/capture_events.py --python $V/bin/python --tests boltons-26.2.0/tests \
        --package boltons --out bench/data/boltons-26.2.0.jsonl --budget 120 test_*.py
    .venv/bin/python bench/capture_events.py --python $V/bin/python \
        --tests voluptuous-0.16.0/voluptuous/tests --package voluptuous \
        --out bench/data/voluptuous-0.16.0.jsonl --budget 200 tests.py

pyparsing's and wtforms' tests import from the sdist's root (``examples``, ``tests.common``), so they
run from there with the sdist's own package folder moved aside (``mv pyparsing _src_pyparsing``,
``mv src _src_wtforms``) so that the installed wheel runs::

    cd pyparsing-3.3.3 && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/pyparsing-3.3.3.jsonl \
        CAPTURE_PACKAGE=pyparsing $V/bin/python -m pytest -q -p capture_plugin -p no:cacheprovider -W ignore \
        --continue-on-collection-errors tests/test_simple_unit.py tests/test_unit.py tests/test_util.py \
        tests/test_examples.py
    cd wtforms-3.3.2 && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/wtforms-3.3.2.jsonl \
        CAPTURE_PACKAGE=wtforms $V/bin/python -m pytest -q -p capture_plugin -p no:cacheprovider -W ignore \
        --continue-on-collection-errors tests

The fifth round's held-out sets, in one venv (``pip install arrow==1.4.0 itsdangerous==2.2.0
sqlparse==0.6.1 humanize==4.17.0 pytest freezegun pytz simplejson``) with each sdist unpacked, all
through this driver (``--budget 150`` for arrow, 120 for the others)::

    .venv/bin/python bench/capture_events.py --python $V/bin/python --tests arrow-1.4.0/tests \
        --package arrow --out bench/data/arrow-1.4.0.jsonl --budget 150 test_api.py test_arrow.py \
        test_factory.py test_formatter.py test_locales.py test_parser.py test_util.py
    .venv/bin/python bench/capture_events.py --python $V/bin/python \
        --tests itsdangerous-2.2.0/tests/test_itsdangerous --package itsdangerous \
        --out bench/data/itsdangerous-2.2.0.jsonl --budget 120 test_encoding.py test_serializer.py \
        test_signer.py test_timed.py test_url_safe.py
    .venv/bin/python bench/capture_events.py --python $V/bin/python --tests sqlparse-0.6.1/tests \
        --package sqlparse --out bench/data/sqlparse-0.6.1.jsonl --budget 120 test_cli.py \\
        test_dos_prevention.py test_format.py test_grouping.py test_keywords.py test_parse.py \\
        test_regressions.py test_split.py test_tokenize.py test_utils.py
    .venv/bin/python bench/capture_events.py --python $V/bin/python --tests humanize-4.17.0/tests \
        --package humanize --out bench/data/humanize-4.17.0.jsonl --budget 120 test_filesize.py \
        test_i18n.py test_lists.py test_number.py test_time.py

(toolz 1.2.0 was tried too and gave no events: its tests check errors with its own
``toolz.utils.raises``, a ``try``/``except`` the plugin does not hook.)

The sixth round's held-out sets (issue 17; docs/matching.md, "Held-out sets of the sixth round"):
one Python 3.13 venv per library, ``/work/evalenv-<lib>``, with the released wheel and the suite's
test dependencies, and the sdist of the same version unpacked (``pip download --no-deps --no-binary
:all: <lib>==<version>``; ``H`` = the directory holding them)::

    werkzeug==3.1.9 pytest cffi cryptography ephemeral-port-reserve pytest-timeout watchdog
    typeguard==4.6.1 pytest typing_extensions
    lark==1.3.1 pytest interegular regex
    semver==3.1.2 pytest packaging
    cattrs==26.2.1 pytest hypothesis immutables pytest-benchmark pymongo cbor2 msgpack orjson ujson
        pyyaml tomlkit msgspec tomli-w
    jsonschema[format-nongpl]==4.26.0 pytest
    rfc3986[idna2008]==2.0.0 pytest
    parsimonious==0.11.0 pytest

All but semver through this driver (every ``test_*.py`` of the folder, plus the named folders);
jsonschema and parsimonious ship their tests inside the package, so ``--tests`` is the installed
``tests`` folder (``$SP`` = the venv's site-packages; the plugin's ``CAPTURE_EXCLUDE`` keeps those
frames out of the library)::

    .venv/bin/python bench/capture_events.py --python /work/evalenv-werkzeug/bin/python \
        --tests $H/werkzeug-3.1.9/tests --package werkzeug --out bench/data/werkzeug-3.1.9.jsonl \
        --budget 120 $(cd $H/werkzeug-3.1.9/tests && ls test_*.py) middleware sansio
    .venv/bin/python bench/capture_events.py --python /work/evalenv-typeguard/bin/python \
        --tests $H/typeguard-4.6.1/tests --package typeguard --out bench/data/typeguard-4.6.1.jsonl \
        --budget 120 $(cd $H/typeguard-4.6.1/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-lark/bin/python \
        --tests $H/lark-1.3.1/tests --package lark --out bench/data/lark-1.3.1.jsonl \
        --budget 150 $(cd $H/lark-1.3.1/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-cattrs/bin/python \
        --tests $H/cattrs-26.2.1/tests --package cattrs --out bench/data/cattrs-26.2.1.jsonl \
        --budget 90 $(cd $H/cattrs-26.2.1/tests && ls test_*.py) preconf
    JSON_SCHEMA_TEST_SUITE=$H/jsonschema-4.26.0/json .venv/bin/python bench/capture_events.py \
        --python /work/evalenv-jsonschema/bin/python --tests $SP/jsonschema/tests --package jsonschema \
        --out bench/data/jsonschema-4.26.0.jsonl --budget 150 $(cd $SP/jsonschema/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-rfc3986/bin/python \
        --tests $H/rfc3986-2.0.0/tests --package rfc3986 --out bench/data/rfc3986-2.0.0.jsonl \
        --budget 120 $(cd $H/rfc3986-2.0.0/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-parsimonious/bin/python \
        --tests $SP/parsimonious/tests --package parsimonious \
        --out bench/data/parsimonious-0.11.0.jsonl --budget 120 test_expressions.py test_grammar.py \
        test_nodes.py

semver's ``conftest.py`` imports its sibling modules (``from coerce import coerce``), which needs
pytest's default import mode from the sdist's root (a ``src/`` layout, so the installed wheel runs)::

    cd $H/semver-3.1.2 && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/semver-3.1.2.jsonl \
        CAPTURE_PACKAGE=semver /work/evalenv-semver/bin/python -m pytest -q -p capture_plugin \
        -p no:cacheprovider -W ignore -o addopts= --continue-on-collection-errors tests

(construct 2.10.70 was not used: its sdist lacks ``tests/declarativeunittest.py``, and its tests
check errors with their own ``raises()``, which the plugin does not hook, as with toolz.)

The seventh round's held-out sets (issue 17; docs/matching.md, "Held-out sets of the seventh round"),
as in the sixth: one Python 3.13 venv per library, ``/work/evalenv-<lib>``, with the released wheel and
the suite's test dependencies; the sdist of the same version unpacked in ``$H`` (dnspython's sdist does
not build its metadata offline: its repository at the tag ``v2.8.0`` instead, ``git archive v2.8.0``)::

    h11==0.16.0 pytest
    wsproto==1.3.2 pytest
    idna==3.20 pytest hypothesis
    glom==25.12.0 pytest pyyaml tomli
    dnspython==2.8.0 pytest cryptography idna
    pyrsistent==0.20.0 pytest hypothesis
    starlette[full]==1.10.0 pytest trio opentelemetry-sdk
    trio==0.35.0 pytest async_generator pyOpenSSL trustme cryptography jedi astor

All but trio through this driver (``$SP(lib)`` = that venv's site-packages).  h11's tests live in
the sdist's package (``h11/tests``, relative imports) and not in the wheel, so they are copied into
the installed package first; glom ships its tests in the wheel as ``glom/test``, which
``CAPTURE_EXCLUDE=/test/`` keeps out of the library::

    cp -r $H/h11-0.16.0/h11/tests $SP(h11)/h11/tests
    .venv/bin/python bench/capture_events.py --python /work/evalenv-h11/bin/python \\
        --tests $SP(h11)/h11/tests --package h11 --out bench/data/h11-0.16.0.jsonl \\
        --budget 120 $(cd $H/h11-0.16.0/h11/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-wsproto/bin/python \\
        --tests $H/wsproto-1.3.2/tests --package wsproto --out bench/data/wsproto-1.3.2.jsonl \\
        --budget 120 $(cd $H/wsproto-1.3.2/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-idna/bin/python \\
        --tests $H/idna-3.20/tests --package idna --out bench/data/idna-3.20.jsonl \\
        --budget 150 $(cd $H/idna-3.20/tests && ls test_*.py)
    CAPTURE_EXCLUDE=/test/ .venv/bin/python bench/capture_events.py \\
        --python /work/evalenv-glom/bin/python --tests $SP(glom)/glom/test --package glom \\
        --out bench/data/glom-25.12.0.jsonl --budget 120 $(cd $SP(glom)/glom/test && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-pyrsistent/bin/python \\
        --tests $H/pyrsistent-0.20.0/tests --package pyrsistent \\
        --out bench/data/pyrsistent-0.20.0.jsonl --budget 120 $(cd $H/pyrsistent-0.20.0/tests && ls *_test.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-starlette/bin/python \\
        --tests $H/starlette-1.10.0/tests --package starlette --out bench/data/starlette-1.10.0.jsonl \\
        --budget 120 $(cd $H/starlette-1.10.0/tests && ls test_*.py) middleware

dnspython's offline tests only (no resolver, query, DoH/DoQ/DDR, async or transfer tests), and not
those of its zone subsystem (``test_zone``, ``test_zonedigest``, ``test_transaction``, ``test_btree*``),
chosen before any replay so that dnspython stays under 30% of the round's events (with every file
it gave 493 events, 388 distinct innermost frames)::

    .venv/bin/python bench/capture_events.py --python /work/evalenv-dnspython/bin/python \\
        --tests $H/dnspython-2.8.0/tests --package dns --out bench/data/dnspython-2.8.0.jsonl \\
        --budget 60 $(cd $H/dnspython-2.8.0/tests && ls test_*.py | grep -vE \\
        '^test_(async|query|resolver|resolver_override|xfr|doh|doq|ddr|zone|zonedigest|transaction|btree|btreezone)\\.py$')

trio ships its tests in the wheel (``trio/_tests``, ``trio/_core/_tests``; ``CAPTURE_EXCLUDE=/_tests/``,
so that ``trio/testing`` stays library code) and needs its own pytest plugin, so it runs in one
pytest process from an empty directory holding the driver's ``pytest.ini``
(``[pytest] addopts = -p no:cacheprovider``)::

    cd /tmp/c7trio && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/trio-0.35.0.jsonl \\
        CAPTURE_PACKAGE=trio CAPTURE_EXCLUDE=/_tests/ timeout 600 /work/evalenv-trio/bin/python -m pytest -q \\
        -c pytest.ini -p capture_plugin -p trio._tests.pytest_plugin --rootdir=$SP(trio)/trio \\
        --import-mode=importlib -W ignore --continue-on-collection-errors --ignore=$SP(trio)/trio/_tests/tools \\
        --ignore=$SP(trio)/trio/_tests/test_exports.py $SP(trio)/trio/_tests $SP(trio)/trio/_core/_tests

(jsonpatch and jsonpointer were not used: each is one module (``jsonpatch.py``, ``jsonpointer.py``), and the plugin
places a package's frames by its directory.)

The eighth round's held-out sets (issue 17; docs/matching.md, "Held-out sets of the eighth round"), as
in the seventh: one Python 3.13 venv per library, ``/work/evalenv-<lib>``, with the released wheel and the
suite's test dependencies (no numpy for pint, so its numpy tests skip); the sdist of the same version
unpacked in ``$H``::

    pluggy==1.7.0 pytest
    natsort==8.4.0 pytest hypothesis pytest-mock
    schema==0.7.8 pytest
    isodate==0.7.2 pytest
    portion==2.6.3 pytest
    pint==0.26.2 pytest pytest-subtests
    webob==1.8.11 pytest
    inflect==7.6.0 pytest
    python-multipart==0.0.34 pytest pyyaml      (venv /work/evalenv-multipart)

All through this driver, budget 90 s a file.  schema's one test file sits at its sdist's root; pint ships
its tests in the wheel (``pint/testsuite``, kept out of the library by ``CAPTURE_EXCLUDE=/testsuite/``),
and not ``test_non_int.py`` (``test_quantity``'s cases again over Decimal/Fraction/float),
``test_contexts.py`` or ``test_issues.py``, chosen before any replay so that pint stays under 30% of the
round's events (with every file it gave 210 events, 174 distinct); webob without ``test_in_wsgiref.py``
(it serves on a socket)::

    .venv/bin/python bench/capture_events.py --python /work/evalenv-pluggy/bin/python \\
        --tests $H/pluggy-1.7.0/testing --package pluggy --out bench/data/pluggy-1.7.0.jsonl \\
        --budget 90 $(cd $H/pluggy-1.7.0/testing && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-natsort/bin/python \\
        --tests $H/natsort-8.4.0/tests --package natsort --out bench/data/natsort-8.4.0.jsonl \\
        --budget 90 $(cd $H/natsort-8.4.0/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-schema/bin/python \\
        --tests $H/schema-0.7.8 --package schema --out bench/data/schema-0.7.8.jsonl \\
        --budget 90 test_schema.py
    .venv/bin/python bench/capture_events.py --python /work/evalenv-isodate/bin/python \\
        --tests $H/isodate-0.7.2/tests --package isodate --out bench/data/isodate-0.7.2.jsonl \\
        --budget 90 $(cd $H/isodate-0.7.2/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-portion/bin/python \\
        --tests $H/portion-2.6.3/tests --package portion --out bench/data/portion-2.6.3.jsonl \\
        --budget 90 $(cd $H/portion-2.6.3/tests && ls test_*.py)
    CAPTURE_EXCLUDE=/testsuite/ .venv/bin/python bench/capture_events.py \\
        --python /work/evalenv-pint/bin/python --tests $SP(pint)/pint/testsuite --package pint \\
        --out bench/data/pint-0.26.2.jsonl --budget 90 $(cd $SP(pint)/pint/testsuite && ls test_*.py | \\
        grep -vE '^test_(non_int|contexts|issues)\\.py$')
    .venv/bin/python bench/capture_events.py --python /work/evalenv-webob/bin/python \\
        --tests $H/webob-1.8.11/tests --package webob --out bench/data/webob-1.8.11.jsonl \\
        --budget 90 $(cd $H/webob-1.8.11/tests && ls test_*.py | grep -v test_in_wsgiref)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-inflect/bin/python \\
        --tests $H/inflect-7.6.0/tests --package inflect --out bench/data/inflect-7.6.0.jsonl \\
        --budget 90 $(cd $H/inflect-7.6.0/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-multipart/bin/python \\
        --tests $H/python_multipart-0.0.34/tests --package python_multipart \\
        --out bench/data/python-multipart-0.0.34.jsonl --budget 90 test_multipart.py test_file.py

(Tried and not used: simpleeval (one module, ``simpleeval.py``: no package directory for the plugin),
asteval (its tests read the interpreter's recorded errors; nothing is raised to a test), uncertainties
(no event recorded), cerberus and sortedcontainers (no tests in the sdist or wheel).)

The ninth round's held-out sets (issue 17; docs/matching.md, "Held-out sets of the ninth round"), as in
the eighth: one Python 3.13 venv per library, ``/work/evalenv-<lib>``, with the released wheel and the
suite's test dependencies; the sdist of the same version unpacked in ``$H`` (bidict's and pypika's sdists
hold no tests: their repositories at the tags ``v0.23.1`` and ``v0.51.1`` instead, ``git archive``)::

    bidict==0.23.1 pytest hypothesis pytest-benchmark sortedcollections sortedcontainers typing_extensions
    cachetools==8.0.2 pytest
    configobj==5.0.9 pytest
    croniter==7.0.0 pytest pytz tzlocal
    cssselect==1.6.0 pytest lxml
    deepdiff[cli]==9.1.0 pytest numpy pandas polars python-dateutil orjson tomli-w pytz uuid6 jsonpickle pydantic
    jsonpath-ng==1.17.0 pytest hypothesis      (venv /work/evalenv-jsonpath)
    mako==1.4.3 pytest markupsafe
    tenacity==9.2.1 pytest tornado typeguard
    transitions==0.9.3 pytest mock dill six
    webcolors==25.10.0 pytest
    json5==0.17.3 pytest
    pypika==0.51.1 pytest parameterized

Through this driver, budget 90 s a file: every ``test_*.py`` of the folder unless named; croniter ships
its tests in the wheel (``croniter/tests``, the default ``CAPTURE_EXCLUDE``), run without its speed test;
pypika's tests (the repository's ``pypika/tests``) are copied into the installed package first, as h11's;
transitions without its diagram tests (graphviz, pygraphviz, mermaid) and without ``test_threading.py``
and ``test_parallel.py`` (``test_core``'s and ``test_nesting``'s cases again over locked and
parallel-state machines: 22 more distinct events, at one more line); webcolors without ``test_html5.py``
(it downloads the HTML5 specification)::

    .venv/bin/python bench/capture_events.py --python /work/evalenv-cachetools/bin/python \\
        --tests $H/cachetools-8.0.2/tests --package cachetools --out bench/data/cachetools-8.0.2.jsonl \\
        --budget 90 $(cd $H/cachetools-8.0.2/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-configobj/bin/python \\
        --tests $H/configobj-5.0.9/src/tests --package configobj --out bench/data/configobj-5.0.9.jsonl \\
        --budget 90 $(cd $H/configobj-5.0.9/src/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-croniter/bin/python \\
        --tests $SP(croniter)/croniter/tests --package croniter --out bench/data/croniter-7.0.0.jsonl \\
        --budget 90 $(cd $SP(croniter)/croniter/tests && ls test_*.py | grep -v test_croniter_speed)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-cssselect/bin/python \\
        --tests $H/cssselect-1.6.0/tests --package cssselect --out bench/data/cssselect-1.6.0.jsonl \\
        --budget 90 test_cssselect.py
    .venv/bin/python bench/capture_events.py --python /work/evalenv-jsonpath/bin/python \\
        --tests $H/jsonpath_ng-1.17.0/tests --package jsonpath_ng --out bench/data/jsonpath-ng-1.17.0.jsonl \\
        --budget 90 $(cd $H/jsonpath_ng-1.17.0/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-tenacity/bin/python \\
        --tests $H/tenacity-9.2.1/tests --package tenacity --out bench/data/tenacity-9.2.1.jsonl \\
        --budget 90 $(cd $H/tenacity-9.2.1/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-transitions/bin/python \\
        --tests $H/transitions-0.9.3/tests --package transitions --out bench/data/transitions-0.9.3.jsonl \\
        --budget 90 $(cd $H/transitions-0.9.3/tests && ls test_*.py | \\
        grep -vE '^test_(graphviz|pygraphviz|mermaid|codestyle|threading|parallel)\\.py$')
    .venv/bin/python bench/capture_events.py --python /work/evalenv-webcolors/bin/python \\
        --tests $H/webcolors-25.10.0/tests --package webcolors --out bench/data/webcolors-25.10.0.jsonl \\
        --budget 90 test_conformance.py test_conversion.py test_normalization.py
    cp -r $H/pypika-0.51.1-repo/pypika/tests $SP(pypika)/pypika/tests
    .venv/bin/python bench/capture_events.py --python /work/evalenv-pypika/bin/python \\
        --tests $SP(pypika)/pypika/tests --package pypika --out bench/data/pypika-0.51.1.jsonl \\
        --budget 90 $(cd $SP(pypika)/pypika/tests && ls test_*.py) clickhouse dialects

bidict's, deepdiff's, json5's and Mako's tests import from the sdist's (or repository's) root (sibling
fixture modules, ``tests``/``conftest``, ``tests.host_fake``, setup.cfg's ``[mako_testing]``), so they run
from there as semver's, with the root's package folder moved aside (``mv <pkg> _src_<pkg>``) so that the
installed wheel runs; Mako's ``assert_raises*`` (``mako.testing.assertions._expect_raises``, a
``try``/``except``) is hooked by the plugin as SQLAlchemy's is (``LIB`` = bidict and ``tests/test_bidict.py``,
deepdiff and ``tests``, json5 and ``tests``, mako and ``test``)::

    cd $H/<sdist> && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/<lib>-<version>.jsonl \\
        CAPTURE_PACKAGE=LIB timeout 600 /work/evalenv-LIB/bin/python -m pytest -q -p capture_plugin \\
        -p no:cacheprovider -W ignore -o addopts= --continue-on-collection-errors TESTS

(Tried and not used: humanfriendly 10.0 (its tests import ``humanfriendly.cli``, which imports ``pipes``,
gone in Python 3.13), furl 2.1.4 (8 events at 2 lines).  Read and not run: pyasn1 (its tests check errors
with ``try``/``except``), fastjsonschema (its validators are code it generates and runs with ``exec``, as
cattrs' structuring functions: their raises are no files of the package).)

The tenth round's held-out sets (issue 17; docs/matching.md, "Held-out sets of the tenth round"), as in
the ninth: one Python 3.13 venv per library, ``/work/evalenv-<lib>``, with the released wheel and the
suite's test dependencies; the sdist of the same version unpacked in ``$H`` (sortedcontainers' sdist
holds no tests: its repository at the tag ``v2.4.0`` instead, ``git archive``)::

    soupsieve==4.1.4 pytest beautifulsoup4 lxml html5lib
    h2==4.4.1 hyperframe==6.1.0 hpack==4.2.0 pytest hypothesis
    hyperframe==6.1.0 pytest
    hpack==4.2.0 pytest hypothesis
    referencing==0.37.0 pytest pytest-subtests
    docstring_parser==0.18.0 pytest
    pyproject-metadata==0.12.1 pytest
    apispec[yaml,marshmallow]==6.10.1 pytest openapi-spec-validator
    email-validator==2.4.0 pytest
    beautifulsoup4==4.15.0 pytest lxml html5lib      (venv /work/evalenv-bs4)
    sortedcontainers==2.4.0 pytest

Through this driver, budget 90 s a file (300 for soupsieve, whose ``test_api.py`` overran 90 s on the
loaded machine): every ``test_*.py`` of the folder unless named; referencing ships its tests in the
wheel (``referencing/tests``, the default ``CAPTURE_EXCLUDE``); docstring_parser's and beautifulsoup4's
tests (the sdist's ``docstring_parser/tests`` and ``bs4/tests``, not in the wheels) are copied into the
installed package first, as h11's; email-validator without ``test_deliverability.py`` (it asks DNS
servers)::

    .venv/bin/python bench/capture_events.py --python /work/evalenv-soupsieve/bin/python \\
        --tests $H/soupsieve-4.1.4/tests --package soupsieve --out bench/data/soupsieve-4.1.4.jsonl \\
        --budget 300 $(cd $H/soupsieve-4.1.4/tests && ls test_*.py) test_extra test_level1 test_level2 \\
        test_level3 test_level4 test_nesting_1
    .venv/bin/python bench/capture_events.py --python /work/evalenv-h2/bin/python \\
        --tests $H/h2-4.4.1/tests --package h2 --out bench/data/h2-4.4.1.jsonl \\
        --budget 90 $(cd $H/h2-4.4.1/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-hyperframe/bin/python \\
        --tests $H/hyperframe-6.1.0/tests --package hyperframe --out bench/data/hyperframe-6.1.0.jsonl \\
        --budget 90 $(cd $H/hyperframe-6.1.0/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-hpack/bin/python \\
        --tests $H/hpack-4.2.0/tests --package hpack --out bench/data/hpack-4.2.0.jsonl \\
        --budget 90 $(cd $H/hpack-4.2.0/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-referencing/bin/python \\
        --tests $SP(referencing)/referencing/tests --package referencing \\
        --out bench/data/referencing-0.37.0.jsonl --budget 90 $(cd $SP(referencing)/referencing/tests && ls test_*.py)
    cp -r $H/docstring_parser-0.18.0/docstring_parser/tests $SP(docstring_parser)/docstring_parser/tests
    .venv/bin/python bench/capture_events.py --python /work/evalenv-docstring_parser/bin/python \\
        --tests $SP(docstring_parser)/docstring_parser/tests --package docstring_parser \\
        --out bench/data/docstring-parser-0.18.0.jsonl \\
        --budget 90 $(cd $SP(docstring_parser)/docstring_parser/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-pyproject_metadata/bin/python \\
        --tests $H/pyproject_metadata-0.12.1/tests --package pyproject_metadata \\
        --out bench/data/pyproject-metadata-0.12.1.jsonl \\
        --budget 90 $(cd $H/pyproject_metadata-0.12.1/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-apispec/bin/python \\
        --tests $H/apispec-6.10.1/tests --package apispec --out bench/data/apispec-6.10.1.jsonl \\
        --budget 90 $(cd $H/apispec-6.10.1/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-email_validator/bin/python \\
        --tests $H/email_validator-2.4.0/tests --package email_validator \\
        --out bench/data/email-validator-2.4.0.jsonl --budget 90 test_main.py test_syntax.py
    cp -r $H/beautifulsoup4-4.15.0/bs4/tests $SP(bs4)/bs4/tests
    .venv/bin/python bench/capture_events.py --python /work/evalenv-bs4/bin/python \\
        --tests $SP(bs4)/bs4/tests --package bs4 --out bench/data/beautifulsoup4-4.15.0.jsonl \\
        --budget 90 $(cd $SP(bs4)/bs4/tests && ls test_*.py)

sortedcontainers' tests (``tests/context.py``) put the repository's root on ``sys.path``, so they run
from there as bidict's, with the root's ``sortedcontainers`` folder moved aside (``mv sortedcontainers
_src_sortedcontainers``) so that the installed wheel runs::

    cd $H/sortedcontainers-2.4.0-repo && PYTHONPATH=<errdex>/bench \\
        CAPTURE_OUT=<errdex>/bench/data/sortedcontainers-2.4.0.jsonl CAPTURE_PACKAGE=sortedcontainers \\
        timeout 600 /work/evalenv-sortedcontainers/bin/python -m pytest -q -p capture_plugin \\
        -p no:cacheprovider -W ignore -o addopts= --continue-on-collection-errors tests/test_*.py

(Tried and not used: iso8601 2.1.0 (3 events, all at one line: its tests are mostly hypothesis
round-trips), asn1crypto 1.5.1 (no tests in the sdist; the repository's ``tests/__init__.py`` imports
``imp``, gone in Python 3.13), cron-descriptor 2.2.1 (four ``raises`` in its suite).)

The eleventh round's held-out sets (issue 17; docs/matching.md, "Held-out sets of the eleventh round"), as
the tenth: one Python 3.13 venv per library with the released wheel and the suite's test dependencies; the
sdist of the same version unpacked in ``$H`` (``/work/home/corpus11/mkvenvs.sh``, ``capture.sh``)::

    construct==2.10.70 pytest
    environs==15.2.0 pytest dj-database-url dj-email-url django-cache-url
    jsonpatch==1.48 jsonpointer==3.12 pytest
    jsonpointer==3.12 pytest
    polib==1.2.0 pytest
    simpleeval==1.0.8 pytest
    xmltodict==1.0.4 pytest
    Cerberus==1.3.5 pytest setuptools
    rsa==4.9.1 pytest
    python-box[all]==8.0.0 pytest PyYAML tomli-w      (the pure-Python wheel; venv /work/evalenv-box)
    parse==1.22.4 pytest

Through this driver, budget 90 s a file, every ``test_*.py`` of the folder unless named; jsonpatch,
jsonpointer, simpleeval and xmltodict are one module each (``jsonpatch.py``: the plugin takes the module
as the library); Cerberus 1.3.8's sdist and wheel hold no tests: 1.3.5, with the tag ``1.3.5``'s
``cerberus/tests`` (``git archive``) copied into the installed package, as h11's::

    .venv/bin/python bench/capture_events.py --python /work/evalenv-environs/bin/python \\
        --tests $H/environs-15.2.0/tests --package environs --out bench/data/environs-15.2.0.jsonl \\
        --budget 90 test_environs.py
    .venv/bin/python bench/capture_events.py --python /work/evalenv-jsonpatch/bin/python \\
        --tests $H/jsonpatch-1.48 --package jsonpatch --out bench/data/jsonpatch-1.48.jsonl --budget 90 tests.py
    .venv/bin/python bench/capture_events.py --python /work/evalenv-jsonpointer/bin/python \\
        --tests $H/jsonpointer-3.12 --package jsonpointer --out bench/data/jsonpointer-3.12.jsonl \\
        --budget 90 tests.py
    .venv/bin/python bench/capture_events.py --python /work/evalenv-simpleeval/bin/python \\
        --tests $H/simpleeval-1.0.8/tests --package simpleeval --out bench/data/simpleeval-1.0.8.jsonl \\
        --budget 90 $(cd $H/simpleeval-1.0.8/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-xmltodict/bin/python \\
        --tests $H/xmltodict-1.0.4/tests --package xmltodict --out bench/data/xmltodict-1.0.4.jsonl \\
        --budget 90 $(cd $H/xmltodict-1.0.4/tests && ls test_*.py)
    cp -r $H/cerberus-1.3.5-repo/cerberus/tests $SP(cerberus)/cerberus/tests
    .venv/bin/python bench/capture_events.py --python /work/evalenv-cerberus/bin/python \\
        --tests $SP(cerberus)/cerberus/tests --package cerberus --out bench/data/cerberus-1.3.5.jsonl \\
        --budget 90 $(cd $SP(cerberus)/cerberus/tests && ls test_*.py)
    .venv/bin/python bench/capture_events.py --python /work/evalenv-parse/bin/python \\
        --tests $H/parse-1.22.4/tests --package parse --out bench/data/parse-1.22.4.jsonl \\
        --budget 90 $(cd $H/parse-1.22.4/tests && ls test_*.py)

From the root of a source tree, as sortedcontainers' (the tree's own package folder or module moved aside,
``mv X _src_X``, so that the installed wheel runs): polib's tests open ``tests/*.po`` from the sdist's root
(``polib.py`` moved aside); rsa's from its repository at the commit "Bumped version to 4.9.1" (2a21a53;
the sdist holds no tests; ``rsa`` moved aside); construct's from its repository's ``tests/`` at the tag
``v2.10.70`` (the sdist's import ``tests/declarativeunittest.py``, which it lacks), whose ``raises(func,
*args)`` returns the class of what ``func`` raised: ``CAPTURE_RAISES_HELPER`` names it so that the plugin
records what it catches; python-box's tests import ``test.common`` from the sdist's root (``box`` moved
aside)::

    cd $H/polib-1.2.0 && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/polib-1.2.0.jsonl \\
        CAPTURE_PACKAGE=polib timeout 600 /work/evalenv-polib/bin/python -m pytest -q -p capture_plugin \\
        -p no:cacheprovider -W ignore -o addopts= --continue-on-collection-errors tests/tests.py
    cd $H/rsa-4.9.1-repo && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/rsa-4.9.1.jsonl \\
        CAPTURE_PACKAGE=rsa timeout 600 /work/evalenv-rsa/bin/python -m pytest -q -p capture_plugin \\
        -p no:cacheprovider -W ignore -o addopts= --continue-on-collection-errors \\
        $(ls tests/test_*.py | grep -v mypy)
    cd $H/construct-2.10.70-repo && PYTHONPATH=<errdex>/bench \\
        CAPTURE_OUT=<errdex>/bench/data/construct-2.10.70.jsonl CAPTURE_PACKAGE=construct \\
        CAPTURE_RAISES_HELPER=tests.declarativeunittest:raises timeout 600 \\
        /work/evalenv-construct/bin/python -m pytest -q -p capture_plugin -p no:cacheprovider -W ignore \\
        -o addopts= --continue-on-collection-errors tests/test_core.py tests/test_expr.py tests/test_compiler.py
    cd $H/python_box-8.0.0 && PYTHONPATH=<errdex>/bench CAPTURE_OUT=<errdex>/bench/data/python-box-8.0.0.jsonl \\
        CAPTURE_PACKAGE=box timeout 600 /work/evalenv-box/bin/python -m pytest -q -p capture_plugin \\
        -p no:cacheprovider -W ignore -o addopts= --continue-on-collection-errors test/test_*.py

(Tried and not used: tabulate 0.10.0 (3 events), uritemplate 4.2.0 (none: its tests assert no error).)

``JAX_TRACEBACK_FILTERING=off`` is the default so that the recorded traceback
holds every frame (what a JAX user sees after following JAX's own advice to
turn filtering off); ``--filtering auto`` records what JAX prints by default
(internal frames removed).  Either way the ground truth (innermost frame inside
the package) is read from the exception object — before JAX's filtering —
never from the text.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_file(python: str, tests: Path, name: str, out: Path, package: str, budget: float,
             filtering: str = "off") -> int:
    """Run one test file under the plugin; return the number of events it added."""
    before = _lines(out)
    env = dict(os.environ)
    env.update(
        {
            "PYTHONPATH": str(HERE),
            "CAPTURE_OUT": str(out),
            "CAPTURE_PACKAGE": package,
            "JAX_PLATFORMS": "cpu",
            "JAX_TRACEBACK_FILTERING": filtering,
            "JAX_NUM_GENERATED_CASES": env.get("JAX_NUM_GENERATED_CASES", "2"),
            "XLA_FLAGS": "--xla_force_host_platform_device_count=2",
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        ini = Path(tmp) / "pytest.ini"
        ini.write_text("[pytest]\naddopts = -p no:cacheprovider\n")
        cmd = [
            python, "-m", "pytest", "-q", "-p", "capture_plugin", "-c", str(ini),
            f"--rootdir={tests}", f"--confcutdir={tests}", "--import-mode=importlib",
            "-W", "ignore", str(tests / name),
        ]
        try:
            subprocess.run(cmd, cwd=tmp, env=env, timeout=budget, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired:
            print(f"  {name}: stopped at the time budget ({budget:.0f}s)", file=sys.stderr)
    return _lines(out) - before


def _lines(path: Path) -> int:
    if not path.exists():
        return 0
    with path.open("rb") as fh:
        return sum(1 for _ in fh)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--python", required=True, help="interpreter of the environment that has the library")
    ap.add_argument("--tests", type=Path, required=True, help="the library's tests directory")
    ap.add_argument("--package", default="jax")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--budget", type=float, default=240.0, help="seconds per test file")
    ap.add_argument("--filtering", default="off", help="JAX_TRACEBACK_FILTERING (off, auto, remove_frames)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for name in args.files:
        added = run_file(args.python, args.tests, name, args.out.resolve(), args.package, args.budget,
                         args.filtering)
        print(f"{name}: {added} events", flush=True)
    print(f"total: {_lines(args.out)} events in {args.out}")


if __name__ == "__main__":
    main()
