"""bench/cost_bench.py prices log bytes from what template.yaml deploys (``deployed_logs``):
the level lines are counted at, whether Lambda's own lines are filtered, the access-log line.
These keep the bench reading the template it prices (a change there it missed fails here)."""
from __future__ import annotations

import re
from pathlib import Path

from bench import cost_bench

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = (ROOT / "template.yaml").read_text()


def test_lines_are_counted_at_the_level_every_function_logs_at():
    function = cost_bench.template_document(TEMPLATE)["Globals"]["Function"]
    level = cost_bench.deployed_logs(TEMPLATE).level
    assert level == function["Environment"]["Variables"]["LOG_LEVEL"] == "INFO"
    assert function["LoggingConfig"]["ApplicationLogLevel"] == level


def test_lambdas_own_lines_are_priced_exactly_when_the_template_lets_them_through():
    function = cost_bench.template_document(TEMPLATE)["Globals"]["Function"]
    filtered = function["LoggingConfig"]["SystemLogLevel"] == "WARN"
    assert cost_bench.deployed_logs(TEMPLATE).platform_lines is not filtered
    assert cost_bench.deployed_logs(TEMPLATE.replace("SystemLogLevel: WARN",
                                                     "SystemLogLevel: INFO")).platform_lines


def test_the_access_line_is_the_templates_format_filled_with_every_variable_it_names():
    named = set(re.findall(r"\$context\.([A-Za-z.]+)", TEMPLATE))
    assert named <= set(cost_bench.ACCESS_LOG_VALUES), named - set(cost_bench.ACCESS_LOG_VALUES)
    size = cost_bench.deployed_logs(TEMPLATE).access_line
    assert 300 < size < 700  # a JSON line of ~13 keys, a user agent, CloudWatch's 26 B
    longer = TEMPLATE.replace('"status":"$context.status"',
                              '"status":"$context.status","again":"$context.status"')
    assert cost_bench.deployed_logs(longer).access_line == size + len(',"again":""') + 3
