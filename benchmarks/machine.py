"""The machine a benchmark ran on, for the first lines of its output: the ratios against torch
differ between CPUs (issue 24's table came from an Intel Xeon with AVX-512; on an AMD EPYC the
same code gives others), so a run names the CPU it measured."""

from __future__ import annotations

import os
import platform


def cpu_model(cpuinfo: str = "/proc/cpuinfo") -> str:
    """The CPU's model name with its family and model numbers (Linux's /proc/cpuinfo: a virtual
    machine may show only "AMD EPYC"), else what ``platform`` knows."""
    fields = _first_cpu(cpuinfo)
    name = fields.get("model name")
    if not name:
        return platform.processor() or platform.machine() or "unknown CPU"
    if "cpu family" in fields and "model" in fields:
        name += f" (family {fields['cpu family']}, model {fields['model']})"
    return name


def _first_cpu(cpuinfo: str) -> dict[str, str]:
    """The fields of the first processor in a /proc/cpuinfo-style file; {} if unreadable."""
    fields: dict[str, str] = {}
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if not line.strip():
                    break  # the first processor's block ends at a blank line
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        return {}
    return fields


def machine_line() -> str:
    """'CPU <model>, <n> CPUs' (each benchmark prints the load itself, when it starts)."""
    return f"CPU {cpu_model()}, {os.cpu_count()} CPUs"
