"""bench/cost_bench.py prices log bytes from what template.yaml deploys: the level the lines are
counted at, whether Lambda's own lines are filtered, the access-log line. These keep the
bench reading the template it prices (a change there that the bench missed fails here)."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    from bench import cost_bench
    return cost_bench


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def _globals() -> dict:
    template = yaml.load((ROOT / "template.yaml").read_text(), Loader=_Loader)
    return template["Globals"]["Function"]


def test_lines_are_counted_at_the_level_every_function_logs_at():
    function = _globals()
    assert function["Environment"]["Variables"]["LOG_LEVEL"] == _bench().DEPLOYED_LOG_LEVEL
    assert function["LoggingConfig"]["ApplicationLogLevel"] == _bench().DEPLOYED_LOG_LEVEL


def test_lambdas_own_lines_are_priced_exactly_when_the_template_lets_them_through():
    bench = _bench()
    template = (ROOT / "template.yaml").read_text()
    filtered = _globals()["LoggingConfig"]["SystemLogLevel"] == "WARN"
    assert bench.platform_lines_logged(template) is not filtered
    assert bench.platform_lines_logged(template.replace("SystemLogLevel: WARN",
                                                        "SystemLogLevel: INFO"))


def test_the_access_line_is_the_templates_format_filled_with_every_variable_it_names():
    bench = _bench()
    template = (ROOT / "template.yaml").read_text()
    named = set(re.findall(r"\$context\.([A-Za-z.]+)", template))
    assert named <= set(bench.ACCESS_LOG_VALUES), named - set(bench.ACCESS_LOG_VALUES)
    size = bench.access_log_bytes(template)
    assert 300 < size < 700  # a JSON line of ~13 keys, a user agent, CloudWatch's 26 B
    longer = template.replace('"status":"$context.status"',
                              '"status":"$context.status","again":"$context.status"')
    assert bench.access_log_bytes(longer) == size + len(',"again":""') + 3
