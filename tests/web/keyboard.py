"""Keyboard-only reach (WCAG 2.1.1): every control a screen shows can be focused with Tab."""
from __future__ import annotations

# Marks each visible control in <main> with data-kb=<n> and returns how many there are; a
# radio group counts once (Tab enters it on one radio, the arrow keys move within it).
_MARK = """() => {
  const controls = [...document.querySelectorAll(
      'main a[href], main button, main input, main select, main textarea, main summary')]
    .filter((el) => !el.disabled && el.getClientRects().length > 0
                    && getComputedStyle(el).visibility !== 'hidden');
  const groups = new Map();
  let n = 0;
  for (const el of controls) {
    const radio = el.type === 'radio' ? el.name : null;
    if (radio && groups.has(radio)) { el.dataset.kb = groups.get(radio); continue; }
    el.dataset.kb = String(n);
    if (radio) groups.set(radio, String(n));
    n++;
  }
  return n;
}"""


def assert_keyboard_reachable(page, screen: str) -> None:
    """Tab from the top of the page until every control of <main> has had the focus."""
    count = page.evaluate(_MARK)
    assert count > 0, f"{screen}: no controls found"
    page.locator("a.skip").focus()  # the page's first stop
    seen: set[str] = set()
    for _ in range(count + 20):  # + the header's links
        page.keyboard.press("Tab")
        mark = page.evaluate("() => document.activeElement?.dataset?.kb ?? null")
        if mark is not None:
            seen.add(mark)
        if len(seen) == count:
            return
    missing = page.evaluate(
        "(seen) => [...document.querySelectorAll('[data-kb]')].filter((el) => !seen.includes(el.dataset.kb))"
        ".map((el) => el.outerHTML.slice(0, 120))", sorted(seen))
    raise AssertionError(f"{screen}: not reachable by Tab: {missing}")
