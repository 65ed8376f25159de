"""The command line: parses arguments, calls one stage, prints (DESIGN.md contract).

Stage modules are imported inside each command so that ``errdex explain`` does
not pay for FastAPI or the extractor at start-up.
"""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="errdex: an encyclopedia of a Python library's errors, built from its source.",
)

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Catalog: a SQLite path or postgresql:// URL (default: $ERRDEX_DB, else per-user data dir)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Emit the same JSON objects as the web API.")]


@app.command()
def index(
    sources: Annotated[list[str] | None, typer.Argument(help="Directory, git checkout, .whl/.tar.gz/.zip, pypi:NAME[==VERSION], installed:NAME")] = None,
    repo: Annotated[str | None, typer.Option("--repo", help="OWNER/NAME, overriding what the source says.")] = None,
    commit: Annotated[str | None, typer.Option("--commit", help="Full commit sha the source corresponds to.")] = None,
    ref: Annotated[str | None, typer.Option("--ref", help="Tag or version to pin source links to.")] = None,
    db: DbOption = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: every core).")] = None,
    repo_path_prefix: Annotated[str | None, typer.Option("--repo-path-prefix", help="Where the package sits in the repository (src/ for a src layout): a wheel does not say, and source links need it.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Parse every file, neither reading nor writing the result cache ($ERRDEX_NO_CACHE).")] = False,
    limit: Annotated[list[str] | None, typer.Option("--limit", metavar="NAME=VALUE", help="Change a bound on untrusted input (docs/security.md; $ERRDEX_LIMIT_NAME), e.g. archive_bytes=4GiB.")] = None,
    json_out: JsonOption = False,
    python: Annotated[str | None, typer.Option("--python", help="For installed:NAME: the interpreter whose environment holds it (default: errdex's own).")] = None,
    from_list: Annotated[str | None, typer.Option("--from-list", help="Also index the sources listed in FILE, one per line ('-': stdin).")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", help="Start a local Dask cluster of N workers: local or local:N.")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run on an existing Dask scheduler (tcp://HOST:8786 or a scheduler file).")] = None,
    reindex: Annotated[bool, typer.Option("--reindex", help="With --from-list/--cluster/--scheduler: index again snapshots already in the catalog.")] = False,
) -> None:
    """Index the errors raised in SOURCE(s) into the catalog."""
    from errdex.commands import index as cmd

    code = cmd.run_index(sources or [], repo=repo, commit=commit, ref=ref, db=db, jobs=jobs, json_out=json_out,
                         use_cache=not no_cache, limits=limit or [], path_prefix=repo_path_prefix,
                         python=python, from_list=from_list, cluster=cluster, scheduler=scheduler,
                         reindex=reindex)
    raise typer.Exit(code)


@app.command()
def show(
    error_id: Annotated[str, typer.Argument(metavar="ID", help="The 16-hex error id.")],
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show one error's whole page: meaning, source, solutions, samples, prevention, related."""
    from errdex.commands import index as cmd

    raise typer.Exit(cmd.run_show(error_id, db=db, json_out=json_out))


@app.command()
def stats(
    db: DbOption = None,
    json_out: JsonOption = False,
    analysis: Annotated[bool, typer.Option("--analysis", help="Evidence coverage of the stored analyses instead.")] = False,
    repo: Annotated[str | None, typer.Option("--repo", help="With --analysis: only this repo.")] = None,
) -> None:
    """Per snapshot: files read and failed, sites by kind and type, template coverage."""
    if analysis:
        from errdex.commands import analyze as analyze_cmd

        raise typer.Exit(analyze_cmd.run_analysis_stats(repo=repo, db=db, json_out=json_out))
    from errdex.commands import index as cmd

    raise typer.Exit(cmd.run_stats(db=db, json_out=json_out))


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    base_url: Annotated[str | None, typer.Option("--base-url", help="Public origin for canonical links and the sitemap (default: $ERRDEX_BASE_URL, else the request's).")] = None,
    report_url: Annotated[str | None, typer.Option("--report-url", help="Pattern of the 'Report an issue' link: {repo} {id} {title} {body} (default: $ERRDEX_REPORT_URL, else the repo's GitHub new-issue page).")] = None,
    db: DbOption = None,
    max_paste: Annotated[int | None, typer.Option("--max-paste", help="Longest paste, in characters (default 262144; $ERRDEX_MAX_PASTE_CHARS).")] = None,
    cache_mb: Annotated[float | None, typer.Option("--cache-mb", help="Memory for cached documents and pages, MB (default 64; $ERRDEX_CACHE_MB).")] = None,
    header_timeout: Annotated[float | None, typer.Option("--header-timeout", help="Seconds a client has to send its request line and headers (default 5; $ERRDEX_HEADER_TIMEOUT).")] = None,
    body_timeout: Annotated[float | None, typer.Option("--body-timeout", help="Seconds a client has to send its request body (default 10; $ERRDEX_BODY_TIMEOUT).")] = None,
    keep_alive: Annotated[float | None, typer.Option("--keep-alive", help="Seconds an idle connection is kept open (default 5; $ERRDEX_KEEP_ALIVE).")] = None,
    max_connections: Annotated[int | None, typer.Option("--max-connections", help="Connections served at once; more get 503 (default 4096; $ERRDEX_MAX_CONNECTIONS).")] = None,
    workers: Annotated[int, typer.Option("--workers", help="Worker processes (several serve a PostgreSQL catalog to many users).")] = 1,
) -> None:
    """Serve the catalog as a web site with a JSON API (limits: docs/security.md)."""
    from errdex.commands import web as cmd

    limits: dict[str, float | None] = {"max_paste": max_paste, "cache_mb": cache_mb, "header_timeout": header_timeout,
                                       "body_timeout": body_timeout, "keep_alive": keep_alive,
                                       "max_connections": max_connections}
    raise typer.Exit(cmd.run_serve(host=host, port=port, db=db, base_url=base_url, report_url=report_url,
                                   limits=limits, workers=workers))


@app.command()
def export(
    directory: Annotated[str, typer.Argument(metavar="DIR", help="Directory to write the static site to.")],
    base_url: Annotated[str | None, typer.Option("--base-url", help="Public origin of the static site, for canonical links and the sitemap.")] = None,
    report_url: Annotated[str | None, typer.Option("--report-url", help="Pattern of the 'Report an issue' link (see serve).")] = None,
    fmt: Annotated[str, typer.Option("--format", help="html (the site, default) or markdown (pages for MkDocs / Sphinx+MyST).")] = "html",
    db: DbOption = None,
) -> None:
    """Write the site as static files (pages and JSON at the same paths) for any static host, or Markdown docs."""
    if fmt == "markdown":
        from errdex.commands import review

        raise typer.Exit(review.run_export_markdown(directory, db=db))
    if fmt != "html":
        typer.echo(f"errdex: --format must be html or markdown (got {fmt!r})", err=True)
        raise typer.Exit(2)
    from errdex.commands import web as cmd

    raise typer.Exit(cmd.run_export(directory, db=db, base_url=base_url, report_url=report_url))


@app.command()
def explain(
    text: Annotated[str | None, typer.Argument(help="A message or traceback; read from stdin when omitted or '-'.")] = None,
    top: Annotated[int, typer.Option("--top", help="How many matches to show.")] = 5,
    repo: Annotated[str | None, typer.Option("--repo", help="Only match errors of OWNER/NAME.")] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
    python: Annotated[str | None, typer.Option("--python", help="The interpreter the traceback comes from (runtime hook).")] = None,
    sys_path: Annotated[str | None, typer.Option("--sys-path", help="Its sys.path, os.pathsep-joined: a distribution there that the catalog lacks is indexed first.")] = None,
    brief: Annotated[bool, typer.Option("--brief", help="The runtime hook's few lines: page id, title, first fix, link.")] = False,
) -> None:
    """Find the raise site(s) that produced a pasted error message or traceback."""
    from errdex.commands import explain as cmd

    raise typer.Exit(cmd.run_explain(text, db=db, json_out=json_out, top=top, repo=repo, python=python,
                                     sys_path=sys_path, brief=brief))


@app.command()
def analyze(
    backend: Annotated[str, typer.Option("--backend", help="static (offline, default) or openai.")] = "static",
    model: Annotated[str | None, typer.Option("--model", help="Model name for --backend openai.")] = None,
    repo: Annotated[str | None, typer.Option("--repo", help="Only the latest snapshot of OWNER/NAME.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Analyse but do not store.")] = False,
    stats: Annotated[bool, typer.Option("--stats", help="Only report the evidence coverage of stored analyses.")] = False,
    db: DbOption = None,
    json_out: JsonOption = False,
    cluster: Annotated[str | None, typer.Option("--cluster", help="Analyse error groups on a local Dask cluster: local or local:N.")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Analyse error groups on an existing Dask scheduler (its workers must reach --db).")] = None,
) -> None:
    """Write the page (meaning, solutions, samples, ...) of every error of the latest snapshot(s)."""
    from errdex.commands import analyze as cmd

    if stats:
        raise typer.Exit(cmd.run_analysis_stats(repo=repo, db=db, json_out=json_out))
    raise typer.Exit(cmd.run_analyze(backend=backend, model=model, repo=repo, dry_run=dry_run, db=db,
                                     json_out=json_out, cluster=cluster, scheduler=scheduler))


@app.command()
def verify(
    repo: Annotated[str | None, typer.Option("--repo", help="Only the latest snapshot of OWNER/NAME.")] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
    execute: Annotated[bool, typer.Option("--execute", help="Re-run every stored proof in the sandbox (errdex prove) and report those that no longer hold.")] = False,
    package: Annotated[str | None, typer.Option("--package", help="With --execute: the distribution to install (default: the repo's name).")] = None,
    artifact: Annotated[str | None, typer.Option("--artifact", help="With --execute: install this wheel, sdist or directory instead of NAME==VERSION.")] = None,
    with_req: Annotated[list[str] | None, typer.Option("--with", help="With --execute: extra requirement in the environment (repeatable), as given to prove --with.")] = None,
    ids: Annotated[list[str] | None, typer.Option("--id", help="With --execute: only this error id or id prefix (repeatable).")] = None,
) -> None:
    """Check every stored analysis's code samples: they parse and use only names that exist (exit 1 if not)."""
    if execute:
        from errdex.commands import prove as pcmd

        raise typer.Exit(pcmd.run_verify_execute(repo=repo, db=db, json_out=json_out, package=package,
                                                 artifact=artifact, python=None, timeout=30.0,
                                                 with_requirements=with_req or [], ids=ids or []))
    from errdex.commands import analyze as cmd

    raise typer.Exit(cmd.run_verify(repo=repo, db=db, json_out=json_out))


@app.command()
def prove(
    repo: Annotated[str | None, typer.Option("--repo", help="OWNER/NAME (its latest snapshot); needed when the catalog holds several.")] = None,
    ids: Annotated[list[str] | None, typer.Option("--id", help="Only this error id or id prefix (repeatable).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Errors proven at once.")] = 2,
    package: Annotated[str | None, typer.Option("--package", help="The distribution to install (default: the repo's name).")] = None,
    artifact: Annotated[str | None, typer.Option("--artifact", help="Install this wheel, sdist or directory instead of NAME==VERSION from the index.")] = None,
    python: Annotated[str | None, typer.Option("--python", help="Interpreter for the sandboxed environment.")] = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Wall-clock seconds per example run.")] = 30.0,
    fresh_process: Annotated[bool, typer.Option("--fresh-process", help="One fresh interpreter per example instead of the batch worker that imports the library once and forks per example.")] = False,
    search: Annotated[bool, typer.Option("--search", help="Also search arguments for the errors no test reaches (Hypothesis in the sandbox; docs/prove.md).")] = False,
    budget: Annotated[float, typer.Option("--budget", help="With --search: seconds of search per error.")] = 10.0,
    seed: Annotated[int, typer.Option("--seed", help="With --search: the search's seed (the same seed, the same calls).")] = 0,
    with_req: Annotated[list[str] | None, typer.Option("--with", help="Extra requirement in the environment (repeatable), e.g. absl-py for the test helpers a distilled test imports (jax._src.test_util).")] = None,
    env: Annotated[list[str] | None, typer.Option("--env", help="NAME=VALUE every example run gets (repeatable), e.g. XLA_FLAGS=--xla_force_host_platform_device_count=8; recorded in each proof.")] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Run candidate examples for observed errors in the sandbox; store those proven (docs/prove.md)."""
    from errdex.commands import prove as cmd

    if jobs < 1 or timeout <= 0 or budget <= 0:
        raise typer.BadParameter("--jobs, --timeout and --budget must be positive")
    raise typer.Exit(cmd.run_prove(repo=repo, ids=ids or [], jobs=jobs, db=db, json_out=json_out, package=package,
                                   artifact=artifact, python=python, timeout=timeout, worker=not fresh_process,
                                   search=search, budget=budget, seed=seed,
                                   env=env or [], with_requirements=with_req or []))


@app.command()
def diff(
    old: Annotated[str, typer.Argument(metavar="OWNER/NAME@OLD", help="The older snapshot: a version, tag or commit.")],
    new: Annotated[str, typer.Argument(metavar="OWNER/NAME@NEW", help="The newer snapshot.")],
    fmt: Annotated[str, typer.Option("--format", help="text (default), markdown (for a changelog) or json.")] = "text",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Errors added, removed, with a changed message or exception type, or moved between two snapshots."""
    from errdex.commands import review as cmd

    raise typer.Exit(cmd.run_diff(old, new, db=db, json_out=json_out, fmt=fmt))


@app.command()
def lint(
    source: Annotated[str | None, typer.Argument(help="Lint this source (as for index) instead of the catalog: dir, git checkout, archive, pypi:NAME.")] = None,
    repo: Annotated[str | None, typer.Option("--repo", help="OWNER/NAME[@REF] in the catalog (default: its only repo), or the repo name of SOURCE.")] = None,
    fmt: Annotated[str, typer.Option("--format", help="text (default), json or sarif (SARIF 2.1.0 for code scanning).")] = "text",
    select: Annotated[str | None, typer.Option("--select", help="Only these rule codes or prefixes, comma-separated (EDX001,EDX004).")] = None,
    ignore: Annotated[str | None, typer.Option("--ignore", help="Skip these rule codes or prefixes.")] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Check a library's error messages (rules EDX001-EDX005, docs/lint.md); exit 1 when anything is found."""
    from errdex.commands import review as cmd

    raise typer.Exit(cmd.run_lint(source, repo=repo, db=db, json_out=json_out, fmt=fmt, select=select, ignore=ignore))


@app.command()
def observe(
    source: Annotated[str, typer.Argument(help="As for index: directory, git checkout, .whl/.tar.gz/.zip, pypi:NAME[==VERSION]")],
    tests: Annotated[list[str] | None, typer.Option("--tests", help="Test folder(s) or file(s) to run, e.g. a checkout of the repo at the indexed tag (repeatable).")] = None,
    python: Annotated[str | None, typer.Option("--python", help="Interpreter for the sandboxed environment (default: newest that the library supports).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Test files run at once.")] = 1,
    timeout: Annotated[float, typer.Option("--timeout", help="Wall-clock seconds per test file.")] = 600.0,
    memory: Annotated[float, typer.Option("--memory", help="Address-space limit per test file, GiB.")] = 8.0,
    fresh: Annotated[bool, typer.Option("--fresh", help="Run every file again instead of resuming.")] = False,
    with_req: Annotated[list[str] | None, typer.Option("--with", help="Extra requirement to install in the sandbox (repeatable), e.g. jaxlib==0.10.2.")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", help="One task per test file on a local Dask cluster errdex starts: local or local:N.")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="One task per test file on an existing Dask scheduler (tcp://HOST:8786 or a scheduler file).")] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Run the library's own tests in a sandbox and record every error its code raises."""
    from errdex.commands import observe as cmd

    raise typer.Exit(cmd.run_observe(source, tests=tests or [], python=python, jobs=jobs, timeout=timeout,
                                     memory_gb=memory, db=db, json_out=json_out, fresh=fresh,
                                     with_requirements=with_req or [], cluster=cluster, scheduler=scheduler))


report_app = typer.Typer(no_args_is_help=True, help="Reports over the catalog for maintainers.")
app.add_typer(report_app, name="report")


@report_app.command("untested")
def report_untested(
    repo: Annotated[str | None, typer.Option("--repo", help="Only OWNER/NAME (its latest snapshot).")] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """The raise sites that no test reached (needs `errdex observe`), by module."""
    from errdex.commands import observe as cmd

    raise typer.Exit(cmd.run_report_untested(repo=repo, db=db, json_out=json_out))
hook_app = typer.Typer(no_args_is_help=True, help="The runtime hook in any Python >= 3.9: explain uncaught errors as they happen.")
app.add_typer(hook_app, name="hook")
PythonOption = Annotated[str | None, typer.Option("--python", help="The interpreter (default: python3 on PATH).")]


@hook_app.command("install")
def hook_install(python: PythonOption = None, json_out: JsonOption = False) -> None:
    """Put the hook (a module and a .pth line) into PYTHON's site-packages."""
    from errdex.commands import hook as cmd

    raise typer.Exit(cmd.run_hook("install", python=python, json_out=json_out))


@hook_app.command("uninstall")
def hook_uninstall(python: PythonOption = None, json_out: JsonOption = False) -> None:
    """Remove the hook from PYTHON's site-packages."""
    from errdex.commands import hook as cmd

    raise typer.Exit(cmd.run_hook("uninstall", python=python, json_out=json_out))


@hook_app.command("status")
def hook_status(python: PythonOption = None, json_out: JsonOption = False) -> None:
    """Whether the hook is installed in PYTHON, and which errdex it runs."""
    from errdex.commands import hook as cmd

    raise typer.Exit(cmd.run_hook("status", python=python, json_out=json_out))


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
