"""benchmarks/machine.py: the CPU a run measured, named in its first lines."""

import importlib.util
import os

from support.paths import ROOT


def load():
    spec = importlib.util.spec_from_file_location("machine", ROOT / "benchmarks" / "machine.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_model_name_comes_from_cpuinfo(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    first = ("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 23\nmodel\t\t: 1\n"
             "model name\t: AMD EPYC\nflags\t\t: fpu\n")
    cpuinfo.write_text(first + "\n" + first.replace("0", "1").replace("EPYC", "other") + "\n")
    assert load().cpu_model(str(cpuinfo)) == "AMD EPYC (family 23, model 1)"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.00GHz\n")
    assert load().cpu_model(str(cpuinfo)) == "Intel(R) Xeon(R) CPU @ 2.00GHz"


def test_without_cpuinfo_the_platform_answers(tmp_path):
    name = load().cpu_model(str(tmp_path / "absent"))
    assert name and name != "unknown CPU"  # platform.machine() is never empty on Linux


def test_the_line_names_the_cpu_and_its_count():
    machine = load()
    assert machine.machine_line() == f"CPU {machine.cpu_model()}, {os.cpu_count()} CPUs"
