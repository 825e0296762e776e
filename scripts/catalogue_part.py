"""Extract the translatable words of some files into a .po of their own (a part of the
catalogue, for translating one area at a time); `make messages` then gathers everything
into locale/<lang>/LC_MESSAGES/django.po, and scripts/catalogue_merge.py brings the
parts' translations into it.

    .venv/bin/python scripts/catalogue_part.py FILE... -o locale/es/parts/NAME.po

A part already there keeps its translations for the msgids still extracted.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.utils.translation.template import templatize  # noqa: E402

from scoring.management.commands.makemessages import Command  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    out = Path(args.output)
    with tempfile.TemporaryDirectory() as tmp:
        sources = []
        for name in args.files:
            path = Path(name)
            text = path.read_text(encoding="utf-8")
            if path.suffix in (".html", ".txt"):
                target = Path(tmp) / (str(path).replace("/", "__") + ".py")
                target.write_text(templatize(text, origin=str(path)), encoding="utf-8")
                sources.append(str(target))
            else:
                sources.append(str(path))
        pot = Path(tmp) / "part.pot"
        options = [o for o in Command.xgettext_options if o.startswith("--keyword")]
        subprocess.run(
            ["xgettext", "-d", "django", "--language=Python", "--from-code=UTF-8",
             "--add-comments=Translators", "--keyword=gettext_noop", "--keyword=gettext_lazy",
             "--keyword=ngettext_lazy:1,2", "--keyword=pgettext:1c,2",
             "--keyword=npgettext:1c,2,3", "--keyword=pgettext_lazy:1c,2",
             "--keyword=npgettext_lazy:1c,2,3", *options, "--add-location=file",
             "--sort-by-file", "-o", str(pot), *sources],
            check=True,
        )  # fmt: skip
        if not pot.exists():
            print("no translatable words in those files", file=sys.stderr)
            return
        if out.exists():
            subprocess.run(["msgmerge", "-q", "-N", "--no-wrap", "-U", "--backup=none", str(out), str(pot)], check=True)
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["msginit", "--no-translator", "--no-wrap", "-l", "es", "-i", str(pot), "-o", str(out)], check=True)
    text = out.read_text(encoding="utf-8").replace("charset=ASCII", "charset=UTF-8")
    text = re.sub(r"#: /\S*/(\S+?)\.py", lambda m: "#: " + m[1].replace("__", "/"), text)
    out.write_text(text, encoding="utf-8")
    untranslated = subprocess.run(["msgattrib", "--untranslated", "--no-wrap", str(out)], capture_output=True, text=True).stdout
    print(f"{out}: {untranslated.count(chr(10) + 'msgid ')} untranslated msgids")


if __name__ == "__main__":
    main()
