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
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Parse every file, neither reading nor writing the result cache ($ERRDEX_NO_CACHE).")] = False,
    json_out: JsonOption = False,
    from_list: Annotated[str | None, typer.Option("--from-list", help="Also index the sources listed in FILE, one per line ('-': stdin).")] = None,
    cluster: Annotated[str | None, typer.Option("--cluster", help="Start a local Dask cluster of N workers: local or local:N.")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run on an existing Dask scheduler (tcp://HOST:8786 or a scheduler file).")] = None,
    reindex: Annotated[bool, typer.Option("--reindex", help="With --from-list/--cluster/--scheduler: index again snapshots already in the catalog.")] = False,
) -> None:
    """Index the errors raised in SOURCE(s) into the catalog."""
    from errdex.commands import index as cmd

    code = cmd.run_index(sources or [], repo=repo, commit=commit, ref=ref, db=db, jobs=jobs, json_out=json_out,
                         use_cache=not no_cache, from_list=from_list, cluster=cluster, scheduler=scheduler,
                         reindex=reindex)
    raise typer.Exit(code)


@app.command()
def show(
    error_id: Annotated[str, typer.Argument(metavar="ID", help="The 16-hex error id.")],
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show one error: header, template, location, guards, snippet."""
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
    workers: Annotated[int, typer.Option("--workers", help="Worker processes (several serve a PostgreSQL catalog to many users).")] = 1,
) -> None:
    """Serve the catalog as a web site with a JSON API."""
    from errdex.commands import web as cmd

    raise typer.Exit(cmd.run_serve(host=host, port=port, db=db, base_url=base_url, report_url=report_url,
                                   workers=workers))


@app.command()
def export(
    directory: Annotated[str, typer.Argument(metavar="DIR", help="Directory to write the static site to.")],
    base_url: Annotated[str | None, typer.Option("--base-url", help="Public origin of the static site, for canonical links and the sitemap.")] = None,
    report_url: Annotated[str | None, typer.Option("--report-url", help="Pattern of the 'Report an issue' link (see serve).")] = None,
    db: DbOption = None,
) -> None:
    """Write the site as static files (pages and JSON at the same paths) for any static host."""
    from errdex.commands import web as cmd

    raise typer.Exit(cmd.run_export(directory, db=db, base_url=base_url, report_url=report_url))


@app.command()
def explain(
    text: Annotated[str | None, typer.Argument(help="A message or traceback; read from stdin when omitted or '-'.")] = None,
    top: Annotated[int, typer.Option("--top", help="How many matches to show.")] = 5,
    repo: Annotated[str | None, typer.Option("--repo", help="Only match errors of OWNER/NAME.")] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Find the raise site(s) that produced a pasted error message or traceback."""
    from errdex.commands import explain as cmd

    raise typer.Exit(cmd.run_explain(text, db=db, json_out=json_out, top=top, repo=repo))


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
) -> None:
    """Check every stored analysis's code samples: they parse and use only names that exist (exit 1 if not)."""
    from errdex.commands import analyze as cmd

    raise typer.Exit(cmd.run_verify(repo=repo, db=db, json_out=json_out))


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
