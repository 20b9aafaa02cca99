"""A learner's edit, done through LibreOffice's own API: open a workbook, type a new number into
one cell of a named block, read other blocks back (as LibreOffice recomputed them).

Run by tests/render/xlsx/test_workbook.py with the system Python that has LibreOffice's `uno` module:

    python3 uno_edit.py WORKBOOK PROFILE_DIR PORT BLOCK ROW COL VALUE READ_BLOCK...

prints {READ_BLOCK: [[cell, ...], ...], ...} as JSON. The profile is a fresh default one: no
recalculation-on-load setting, so what moves is what LibreOffice recomputed after the edit.
"""

import json
import subprocess
import sys
import time
from pathlib import Path

import uno
from com.sun.star.beans import PropertyValue


def connect(port: int, soffice: subprocess.Popen):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local)
    url = f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext"
    for _ in range(240):
        try:
            return resolver.resolve(url)
        except Exception:  # not listening yet
            if soffice.poll() is not None:
                raise SystemExit(f"soffice exited with {soffice.returncode}") from None
            time.sleep(0.25)
    raise SystemExit("soffice did not start listening within 60 s")


def main(path, profile, port, block, row, col, value, *read):
    soffice = subprocess.Popen(
        ["soffice", f"-env:UserInstallation={Path(profile).resolve().as_uri()}", "--headless",
         "--invisible", "--norestore", f"--accept=socket,host=127.0.0.1,port={port};urp;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ctx = connect(int(port), soffice)
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        hidden = PropertyValue(Name="Hidden", Value=True)
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(str(Path(path).resolve())),
                                           "_blank", 0, (hidden,))
        names = doc.NamedRanges
        cells = names.getByName(block).getReferredCells()
        cells.getCellByPosition(int(col), int(row)).setValue(float(value))
        out = {name: [list(r) for r in names.getByName(name).getReferredCells().getDataArray()]
               for name in read}
        doc.close(True)
        print(json.dumps(out))
    finally:
        soffice.terminate()
        soffice.wait(timeout=30)


if __name__ == "__main__":
    main(*sys.argv[1:])
