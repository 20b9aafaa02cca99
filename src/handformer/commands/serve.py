"""`handformer serve`: the walkthrough as a local web app (Starlette on uvicorn)."""

from __future__ import annotations

import click

from ..cli import user_errors
from ..errors import HandformerError

PUBLIC = ("0.0.0.0", "::", "")


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on; 0.0.0.0 lets other machines in (with a warning)")
@click.option("--open", "open_browser", is_flag=True, help="open the page in a web browser")
@user_errors
def serve(port, host, open_browser):
    """Serve the walkthrough as a web app: type sentences, change the model, train, decode."""
    try:
        import uvicorn

        from ..server.app import create_app
    except ImportError as err:
        raise HandformerError(f"`handformer serve` needs starlette and uvicorn ({err.name} is "
                              f"missing): pip install 'handformer[serve]'") from None
    if host in PUBLIC:
        click.echo(f"warning: listening on all interfaces ({host or 'all'}): anyone who can "
                   f"reach this machine can use the app", err=True)
    url = f"http://{'127.0.0.1' if host in PUBLIC else host}:{port}/"
    click.echo(f"handformer serving on {url} (Ctrl-C stops)", err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    uvicorn.run(create_app(host=host), host=host, port=port, log_level="warning")


COMMANDS = [serve]
