"""The commonest sentences across a repo's stored pages, split as the slow boilerplate test splits them.

How to run: .venv/bin/python bench/boilerplate.py CATALOG.sqlite [OWNER/NAME] [N]
(``CATALOG`` is ``$ERRDEX_HOME/catalog.sqlite`` after ``errdex index``/``errdex analyze``.)
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections import Counter


def main(db_path: str, repo: str = "jax-ml/jax", top: int = 3) -> None:
    db = sqlite3.connect(db_path)
    row = db.execute("select snapshot from analyses where snapshot like ? limit 1", (f"{repo}@%",)).fetchone()
    counts: Counter[str] = Counter()
    pages = 0
    for (js,) in db.execute("select json from analyses where snapshot=?", (row[0],)):
        a = json.loads(js)
        texts = [a["meaning"], *(s["text"] for s in a["solutions"]), *a["prevention"], a["trigger"], *a["situations"]]
        counts.update({s.strip() for t in texts for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`])", t) if s.strip()})
        pages += 1
    for sentence, n in counts.most_common(top):
        print(f"{n} of {pages} pages ({100 * n / pages:.1f}%): {sentence[:140]}")


if __name__ == "__main__":
    main(sys.argv[1], *(sys.argv[2:3] or ["jax-ml/jax"]), *[int(x) for x in sys.argv[3:4]])
