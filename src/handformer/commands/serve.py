"""`handformer serve`: the walkthrough as a local web app (Starlette on uvicorn)."""

from __future__ import annotations

import ipaddress
import socket

import click

from ..cli import user_errors
from ..cli_checks import Whole
from ..errors import HandformerError
from ..textsafe import one_line
from ..train.memory import give_back_freed_memory


def listen_address(host: str) -> tuple[bool, str, str]:
    """(whether ``host`` means every interface, the host to bind, the host part of a URL
    that connects to it).

    Every spelling counts: "", 0, 0.0.0.0, 0x0, ::, ::0, [::], ::ffff:0.0.0.0. An IPv6
    address is bracketed in a URL, and the IPv6 "every interface" is reached as [::1]: the
    server listens on IPv6 only there (uvicorn sets IPV6_V6ONLY), so 127.0.0.1 would be
    refused. For the same reason an IPv4-mapped address (::ffff:a.b.c.d) cannot be bound as
    given: it is bound as the IPv4 address it maps."""
    bare = host.strip("[]")
    try:
        found = socket.getaddrinfo(bare or None, 0, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as err:
        raise HandformerError(f"--host {one_line(repr(host))} is not an address of this "
                              f"machine: {err}") from None
    first = ipaddress.ip_address(found[0][4][0].split("%")[0])
    if first.version == 6 and first.ipv4_mapped is not None:
        first = first.ipv4_mapped
        bare = str(first)
    if first.is_unspecified:
        return True, bare, "[::1]" if first.version == 6 else "127.0.0.1"
    url_host = f"[{bare}]" if first.version == 6 and ":" in bare else bare
    return False, bare, url_host


def check_bind(host: str, port: int, shown: str) -> None:
    """Bind and close a socket as uvicorn will (SO_REUSEADDR; IPv6 only on IPv6), so that a
    port in use or an address this machine lacks is one line, said before "serving on"."""
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        for family, kind, proto, _name, address in found:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
    except OSError as err:
        raise HandformerError(f"cannot listen on {one_line(shown)} port {port}: "
                              f"{err.strerror or err}") from None


@click.command()
@click.option("--port", type=Whole(0, 65535), default=8000, show_default=True)
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
    everywhere, bind_host, shown_host = listen_address(host)
    check_bind(bind_host, port, host)
    if everywhere:
        click.echo(f"warning: listening on all interfaces ({one_line(host) or 'all'}): anyone "
                   f"who can reach this machine can use the app", err=True)
    url = f"http://{shown_host}:{port}/"
    click.echo(f"handformer serving on {one_line(url)} (Ctrl-C stops)", err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    give_back_freed_memory()  # the budget counts what threads hold, so freed memory goes back
    app = create_app(host="0.0.0.0" if everywhere else bind_host)
    uvicorn.run(app, host=bind_host, port=port, log_level="warning")


COMMANDS = [serve]
