"""docs/benchmarks.md's generated table is what the benches reported (bench/docs_table.py).

The committed results (bench/results/*.json) are each bench's own output (bench.support.report);
the table must equal what they render, and every figure in them must be one its bench
reports: each row's key is a literal in that bench's source, next to a report() call."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _docs_table():
    spec = importlib.util.spec_from_file_location("docs_table", ROOT / "bench" / "docs_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_table_is_what_the_committed_results_render():
    docs_table = _docs_table()
    text = docs_table.DOC.read_text()
    assert docs_table.START in text and docs_table.END in text
    assert docs_table.rendered_doc(text, docs_table.render(docs_table.results())) == text, (
        "docs/benchmarks.md's table is stale: run .venv/bin/python bench/docs_table.py")


def test_every_committed_figure_is_reported_by_its_bench():
    found = sorted((ROOT / "bench" / "results").glob("*.json"))
    assert found
    for path in found:
        result = json.loads(path.read_text())
        script = ROOT / result["bench"]
        assert script.name == path.stem + ".py" and script.exists(), path
        source = script.read_text()
        assert f'report("{path.stem}"' in source, (script, "calls report() under its name")
        assert result["rows"], path
        for row in result["rows"]:
            assert f'"{row["key"]}"' in source, (script, row["key"])
            assert row["what"] and row["figure"], (path, row)


def test_a_stale_table_is_caught(tmp_path):
    docs_table = _docs_table()
    text = docs_table.DOC.read_text()
    results = docs_table.results()
    results[0]["rows"][0]["figure"] += " (changed)"
    assert docs_table.rendered_doc(text, docs_table.render(results)) != text
