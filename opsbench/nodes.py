"""Per-node model servers: ``-M node_base_url=…`` sends each node's episodes to its own server.

A cluster that serves an open model runs one model server per node; the Ray executor
(``--executor ray``) resolves this option on each node to that node's base URL, used there as
``--base-url`` would be (by the models, an LLM caller and the judge). Two forms:

* a template with any of the fields ``{node_ip}``, ``{hostname}``, ``{node_id}``:
  ``http://{node_ip}:8000/v1``;
* a map from node IP address or hostname to URL, ``*`` for every other node:
  ``{10.0.0.5: "http://10.0.0.5:8000/v1", gpu-2: "http://gpu-2:9000/v1"}``.

The option is recorded with the run's other model options (so ``--resume`` must repeat it), no
adapter ever sees it, and the local executor refuses it rather than ignore it. This module
never imports Ray.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from opsbench.errors import SelectionError

NODE_BASE_URL = "node_base_url"
NODE_FIELDS = ("node_ip", "hostname", "node_id")
_URL = re.compile(r"^https?://[^\s/]+\S*$")


def without_node_option(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` as the adapters take them: without :data:`NODE_BASE_URL`."""
    return {k: v for k, v in options.items() if k != NODE_BASE_URL}


def check_node_option(value: Any) -> None:
    """Refuse a ``node_base_url`` that no node could resolve to a URL, in one line."""
    prefix = f"-M {NODE_BASE_URL}"
    if isinstance(value, str):
        fields = [name for _, name, _, _ in string.Formatter().parse(value) if name is not None]
        unknown = [name for name in fields if name not in NODE_FIELDS]
        if unknown:
            raise SelectionError(
                f"{prefix}={value}: unknown field {{{unknown[0]}}}; a template may use "
                + ", ".join(f"{{{f}}}" for f in NODE_FIELDS)
            )
        if not fields:
            raise SelectionError(
                f"{prefix}={value} names no node field ({', '.join(NODE_FIELDS)}): for one "
                "server everywhere, give --base-url instead"
            )
        _check_url(value.format(node_ip="10.0.0.1", hostname="node", node_id="0" * 8), value)
        return
    if isinstance(value, Mapping) and value:
        for node, url in value.items():
            if not isinstance(node, str) or not node or not isinstance(url, str):
                raise SelectionError(
                    f"{prefix}: each entry maps a node's IP address or hostname (or *) to a "
                    f"URL, got {node!r}: {url!r}"
                )
            _check_url(url, url)
        return
    raise SelectionError(
        f"{prefix} must be a URL template such as http://{{node_ip}}:8000/v1 or a map from node "
        f"IP address or hostname to URL, got {value!r}"
    )


def _check_url(url: str, shown: str) -> None:
    if not _URL.match(url):
        raise SelectionError(
            f"-M {NODE_BASE_URL}: {shown!r} is not a URL like http://{{node_ip}}:8000/v1"
        )


def node_base_url(value: Any, *, node_ip: str, hostname: str, node_id: str) -> str:
    """The base URL ``value`` (a checked ``node_base_url``) gives the node so described."""
    if isinstance(value, str):
        return value.format(node_ip=node_ip, hostname=hostname, node_id=node_id)
    for name in (node_ip, hostname, "*"):
        if name in value:
            return str(value[name])
    raise SelectionError(
        f"-M {NODE_BASE_URL} names no server for node {hostname} ({node_ip}); add an entry "
        "for it, or * for every other node"
    )


__all__ = ["NODE_BASE_URL", "check_node_option", "node_base_url", "without_node_option"]
