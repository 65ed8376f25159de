"""``analyze_with_llm``: every error of a snapshot, written by a model over the static page.

Why this order of work: facts and the static Analysis are computed for every
error first (cheap, offline, and the fallback for any section the model
fails); the cache is consulted next, so a re-analysis after re-indexing only
sends the errors whose facts changed; the misses go to a thread pool of
``concurrency`` workers sharing one HTTP client; results are merged and
written in batches from the calling thread (catalog connections are per
thread).  ``dry_run`` stops before the first request and reports what would
be sent.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from errdex.analyze.context import SnapshotContext, load_context
from errdex.analyze.facts import Facts, gather_facts
from errdex.analyze.llm.cache import AnswerCache, cache_key, default_cache_path
from errdex.analyze.llm.client import ChatClient, ClientConfig, LLMError
from errdex.analyze.llm.merge import backend_name, merge
from errdex.analyze.llm.prompt import PROMPT_VERSION, Prompt, build_prompt, prompt_tokens
from errdex.analyze.llm.rounds import Conversation, Outcome, Reject, catchable, sample_problem
from errdex.analyze.llm.runreport import LLMReport, ProgressStep
from errdex.analyze.llm.schema import SAMPLE_SECTIONS, SECTIONS
from errdex.catalog.base import Catalog
from errdex.model import Analysis, Snapshot

StaticFn = Callable[[Facts, SnapshotContext], Analysis]
_BATCH = 100
# This many requests failing in a row for a reason no other error can escape (the server is not
# there, the key or the model name is wrong) stops the run: the rest keep their static pages.
_ABORT_AFTER = 3
_FATAL = frozenset({"connection", "client"})


@dataclass
class _Run:
    """One run's state: the counters of the report and the analyses waiting to be written."""

    catalog: Catalog
    model: str
    dry_run: bool
    progress: Callable[..., None] | None
    total: int = 0
    done: int = 0
    asked: int = 0
    hits: int = 0
    requests: int = 0
    ptok: int = 0
    ctok: int = 0
    pages_model: int = 0
    pages_static: int = 0
    sec_model: int = 0
    sec_static: int = 0
    rejects: list[Reject] = field(default_factory=list)
    failed: list[Reject] = field(default_factory=list)
    pending: list[Analysis] = field(default_factory=list)
    today: str = field(default_factory=lambda: datetime.now(UTC).date().isoformat())

    def settle(self, outcome: Outcome, job: _Job) -> None:
        """Merge one error's outcome over its static page, count it, queue it for the catalog."""
        analysis = merge(job.static, outcome.sections, job.prompt.evidence, model=self.model, date=self.today,
                         rejected=[f"{r.section}: {r.reason}" for r in outcome.rejects])
        self.rejects.extend(outcome.rejects)
        self.requests += outcome.requests
        self.ptok += outcome.prompt_tokens
        self.ctok += outcome.completion_tokens
        n_model = len(analysis.model_sections)
        self.sec_model += n_model
        self.sec_static += len(SECTIONS) - n_model
        if n_model:
            self.pages_model += 1
        else:
            self.pages_static += 1
        if not self.dry_run:
            self.pending.append(analysis)
            if len(self.pending) >= _BATCH:
                self.flush()
        self.step()

    def step(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(ProgressStep(self.done, self.total, self.ptok + self.ctok, self.hits))

    def flush(self) -> None:
        if self.pending:
            self.catalog.put_analyses(self.pending)
            self.pending.clear()


@dataclass(frozen=True, slots=True)
class _Job:
    facts: Facts
    static: Analysis
    prompt: Prompt
    key: str


def analyze_with_llm(catalog: Catalog, snapshot_key: str, *, model: str, dry_run: bool,
                     progress: Callable[..., None] | None = None, config: ClientConfig | None = None,
                     cache: AnswerCache | None = None, static: StaticFn | None = None,
                     client: ChatClient | None = None) -> LLMReport:
    """Analyse every error of ``snapshot_key`` with ``model``; store the pages unless ``dry_run``.

    ``progress(step)`` is called from this thread after each error with a
    ``ProgressStep`` (an int, 1, that also carries ``done``, ``total``,
    ``tokens`` and ``cache_hits``).  Raises ``LLMError`` when the snapshot is
    unknown or the configuration is invalid; a failing request never does.
    ``config``, ``cache``, ``static`` and ``client`` default to the
    environment, the file next to the catalog, the static backend and a new
    client.
    """
    cfg = config or ClientConfig.from_env()
    snapshot = _snapshot(catalog, snapshot_key)
    static_fn = static or _default_static()
    answers = cache if cache is not None else AnswerCache(default_cache_path(_catalog_path(catalog)),
                                                          create=not dry_run)
    run = _Run(catalog, model, dry_run, progress)
    chat: ChatClient | None = None
    aborted = ""
    try:
        ctx = load_context(catalog, snapshot)
        symbols = ctx.all_symbols
        jobs = list(_jobs(catalog, snapshot, ctx, static_fn, model, run.failed))
        run.total, run.done = len(jobs) + len(run.failed), len(run.failed)
        misses: list[_Job] = []
        for job in jobs:
            hit = answers.get(job.key)
            if hit is None:
                misses.append(job)
            else:
                run.hits += 1
                run.settle(_from_cache(job, hit.answer, symbols), job)
        run.asked = len(misses)
        if dry_run:
            for job in misses:
                run.requests += 1
                run.ptok += prompt_tokens(job.prompt.messages)
                run.step()
        elif misses:
            chat = client or ChatClient(cfg)
            aborted = _ask_and_settle(run, chat, symbols, misses, answers, cfg.concurrency)
        run.flush()
    finally:
        if chat is not None and client is None:
            chat.close()
        if cache is None:
            answers.close()
    return LLMReport(
        snapshot=snapshot.key, model=model, backend=backend_name(model), prompt_version=PROMPT_VERSION,
        base_url=cfg.base_url, dry_run=dry_run, errors=run.total, asked=run.asked, cache_hits=run.hits,
        requests=run.requests, prompt_tokens=run.ptok, completion_tokens=run.ctok,
        max_completion_tokens=run.requests * cfg.max_tokens if dry_run else 0,
        pages_model=0 if dry_run else run.pages_model, pages_static=0 if dry_run else run.pages_static,
        sections_model=0 if dry_run else run.sec_model, sections_static=0 if dry_run else run.sec_static,
        rejects=tuple(run.rejects), failed=tuple(run.failed), cache_path=str(answers.path),
        retries_waited=sum(chat.waits) if chat is not None else 0.0, aborted=aborted,
    )


def _ask_and_settle(run: _Run, chat: ChatClient, symbols: Mapping[str, tuple[str, ...]], misses: list[_Job],
                    answers: AnswerCache, concurrency: int) -> str:
    """Send the misses, cache the valid answers, settle every outcome; the reason if the run stopped early."""
    streak = 0
    stop: list[str] = []  # the reason, once the run stops sending
    for job, outcome in _ask_all(chat, run.model, symbols, misses, concurrency, lambda: bool(stop)):
        streak = streak + 1 if outcome.failure in _FATAL else 0
        if streak >= _ABORT_AFTER and not stop:
            last = outcome.rejects[0].reason if outcome.rejects else outcome.failure
            stop.append(f"stopped after {streak} requests in a row failed; the rest keep their static"
                        f" pages. Last: {last}")
        if outcome.answered:
            answers.put(job.key, model=run.model, prompt_version=PROMPT_VERSION, error_id=job.facts.error_id,
                        answer=outcome.sections, prompt_tokens=outcome.prompt_tokens,
                        completion_tokens=outcome.completion_tokens)
        run.settle(outcome, job)
    return stop[0] if stop else ""


def _jobs(catalog: Catalog, snapshot: Snapshot, ctx: SnapshotContext, static_fn: StaticFn, model: str,
          failed: list[Reject]) -> Iterator[_Job]:
    """Facts, static page, prompt and cache key per error; an error that cannot be analysed is on record."""
    for site in ctx.sites:
        try:
            facts = gather_facts(catalog, snapshot, site, context=ctx)
            static = static_fn(facts, ctx)
        except Exception as exc:  # one bad error never aborts the run (STYLE.md 4)
            failed.append(Reject(site.error_id, "*", f"no static analysis: {type(exc).__name__}: {exc}"))
            continue
        prompt = build_prompt(facts)
        yield _Job(facts, static, prompt, cache_key(prompt.fingerprint, model, PROMPT_VERSION))


def _ask_all(chat: ChatClient, model: str, symbols: Mapping[str, tuple[str, ...]], jobs: list[_Job],
             concurrency: int, stop: Callable[[], bool]) -> Iterator[tuple[_Job, Outcome]]:
    """Each job's outcome as it finishes; once ``stop()`` holds, the jobs not yet started are not sent."""
    with cf.ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="errdex-llm") as pool:
        futures = {pool.submit(Conversation(chat, model, symbols).run, j.facts.error_id, j.prompt,
                               catchable(j.facts)): j for j in jobs}
        stopped = False
        for fut in cf.as_completed(futures):
            job = futures[fut]
            if fut.cancelled():
                yield job, Outcome(job.facts.error_id, rejects=(Reject(job.facts.error_id, "*", "not sent: the run"
                                                                       " stopped after repeated failures"),))
                continue
            try:
                yield job, fut.result()
            except Exception as exc:  # a bug in one conversation costs that page only
                yield job, Outcome(job.facts.error_id, rejects=(Reject(job.facts.error_id, "*",
                                                                       f"{type(exc).__name__}: {exc}"),))
            if not stopped and stop():
                stopped = True
                for f in futures:
                    f.cancel()


def _from_cache(job: _Job, answer: dict[str, Any], symbols: Mapping[str, tuple[str, ...]]) -> Outcome:
    """A cached answer, its samples verified again against today's symbol table."""
    sections = dict(answer)
    rejects = []
    for s in SAMPLE_SECTIONS:
        if s in sections:
            why = sample_problem(s, sections[s], symbols, catchable(job.facts))
            if why:
                rejects.append(Reject(job.facts.error_id, s, f"cached sample no longer verifies: {why}"))
                del sections[s]
    return Outcome(job.facts.error_id, sections=sections, rejects=tuple(rejects), cached=True, answered=True)


def _snapshot(catalog: Catalog, key: str) -> Snapshot:
    for snap in catalog.snapshots():
        if snap.key == key:
            return snap
    known = ", ".join(s.key for s in catalog.snapshots()[:5]) or "none"
    raise LLMError(f"no snapshot {key!r} in the catalog (known: {known})", kind="client")


def _catalog_path(catalog: Catalog) -> Path | None:
    path = getattr(catalog, "path", None)
    return path if isinstance(path, Path) else None


def _default_static() -> StaticFn:
    """The static backend's page for one error (helper D's ``analyze.static``)."""
    from errdex.analyze.static import analyze_facts

    return analyze_facts
