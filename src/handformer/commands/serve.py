"""`handformer serve`: the walkthrough as a local web app (Starlette on uvicorn)."""

from __future__ import annotations

import ipaddress
import socket

import click

from ..cli import user_errors
from ..errors import HandformerError
from ..textsafe import one_line


def listen_address(host: str) -> tuple[bool, str]:
    """(whether ``host`` means every interface, the host part of a URL that connects to it).

    Every spelling counts: "", 0, 0.0.0.0, 0x0, ::, ::0, [::]. An IPv6 address is bracketed
    in a URL, and the IPv6 "every interface" is reached as [::1]: the server listens on IPv6
    only there (uvicorn sets IPV6_V6ONLY), so 127.0.0.1 would be refused."""
    bare = host.strip("[]")
    try:
        found = socket.getaddrinfo(bare or None, 0, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as err:
        raise HandformerError(f"--host {host!r} is not an address of this machine: "
                              f"{err}") from None
    first = ipaddress.ip_address(found[0][4][0].split("%")[0])
    if first.is_unspecified:
        return True, "[::1]" if first.version == 6 else "127.0.0.1"
    return False, f"[{bare}]" if first.version == 6 and ":" in bare else bare


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
                              f"missing): pip install -e '.[serve]' in handformer's "
                              "checkout") from None
    everywhere, shown_host = listen_address(host)
    if everywhere:
        click.echo(f"warning: listening on all interfaces ({host or 'all'}): anyone who can "
                   f"reach this machine can use the app", err=True)
    url = f"http://{shown_host}:{port}/"
    click.echo(f"handformer serving on {one_line(url)} (Ctrl-C stops)", err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    app = create_app(host="0.0.0.0" if everywhere else host.strip("[]"))
    uvicorn.run(app, host=host.strip("[]"), port=port, log_level="warning")


COMMANDS = [serve]
