"""Answers a console line cannot read: the site checks hashes, not answers (issue 53).

A question's page carries no answer, in plain or under a fixed key. Each instance
carries a salt and, for every response the site must recognise, the SHA-256 of the salt
and the response in a canonical form (truncated to 64 bits):

* ``integer``: the number in decimal; ``fraction``: ``n/d`` in lowest terms;
  ``choice``: the option's index; ``yesno``: ``yes`` or ``no``; ``choices``: per option,
  whether it belongs (so the hint for the first option the reader got wrong can show);
* ``number``: its index on the tolerance grid, ``floor(x / tol + 1/2)``; the script
  tries the reader's index and its two neighbours (so the site accepts up to 1.5 tol
  away, the kernel up to tol);
* ``formula``: its values at the question's fixed points, each to 8 significant digits
  (two formulas that agree there are taken as equal, as the kernel does).

The reason shown with a right answer and each aimed hint are encrypted (SHA-256 in
counter mode) with a key drawn from the salt and the response they are for: only that
response opens them. "Show answer" fetches the answer from a JSON file beside the pages
(``_static/answers/<lesson>.json``), on click only.

What this protects: a casual look (the page's text, its source, ``window``, the data
attributes, the search index) shows no answer, and no global function decodes one.
What it does not: whoever reads the build can fetch the answers file, or hash the few
options of a choice; these are self-checks, graded work stays in nbgrader.

Example
-------
>>> canonical_number(0.4472, 2e-3)
'224'
>>> canonical_values([2.0, -0.000123456789])
'20000000e-7;-12345679e-11'
>>> len(digest("salt", "8"))
16
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
from typing import Any

#: Significant digits a formula's values are compared at (the kernel: rel. 1e-6).
FORMULA_DIGITS = 8


def digest(salt: str, text: str) -> str:
    """The check hash of ``text``: SHA-256 of ``salt|text``, 16 hex digits."""
    return hashlib.sha256(f"{salt}|{text}".encode()).hexdigest()[:16]


def _keystream_xor(key: bytes, data: bytes) -> bytes:
    out = bytearray()
    for block in range(0, len(data), 32):
        pad = hashlib.sha256(key + block.to_bytes(4, "big")).digest()
        out += bytes(a ^ b for a, b in zip(data[block:block + 32], pad, strict=False))
    return bytes(out)


def seal(salt: str, text: str, message: str) -> str:
    """``message`` encrypted with the key of ``text`` (base64); :func:`unseal` opens it.

    >>> unseal("s", "8", seal("s", "8", "Right: 2 cubed."))
    'Right: 2 cubed.'
    """
    key = hashlib.sha256(f"key|{salt}|{text}".encode()).digest()
    return base64.b64encode(_keystream_xor(key, message.encode("utf-8"))).decode("ascii")


def unseal(salt: str, text: str, sealed: str) -> str:
    """The inverse of :func:`seal` (the script does the same in the browser)."""
    key = hashlib.sha256(f"key|{salt}|{text}".encode()).digest()
    return _keystream_xor(key, base64.b64decode(sealed)).decode("utf-8")


def canonical_number(value: float, tol: float) -> str:
    """A number's index on its tolerance grid."""
    return str(math.floor(float(value) / tol + 0.5))


def _significant(x: float) -> str:
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else "nan"
    e = math.floor(math.log10(abs(x)))
    for _ in range(3):  # log10 may be one off near a power of ten
        k = e - (FORMULA_DIGITS - 1)
        # Multiply or divide by an exact power of ten: the same bits in JavaScript.
        m = math.floor((x * 10.0 ** -k if k < 0 else x / 10.0 ** k) + 0.5)
        if abs(m) >= 10 ** FORMULA_DIGITS:
            e += 1
        elif abs(m) < 10 ** (FORMULA_DIGITS - 1):
            e -= 1
        else:
            break
    return f"{m}e{k}"


def canonical_values(values: list[float]) -> str:
    """A formula's values at the fixed points, to :data:`FORMULA_DIGITS` digits."""
    return ";".join(_significant(float(v)) for v in values)


def canonical(kind: str, value: Any, tol: float | None = None) -> str:
    """The canonical text of a value as ``perclib.questions.Question.secret`` stores it."""
    if kind == "integer":
        return str(int(value))
    if kind == "fraction":
        return f"{int(value[0])}/{int(value[1])}"
    if kind == "number":
        return canonical_number(value, tol)
    if kind == "yesno":
        return "yes" if value else "no"
    if kind == "formula":
        return canonical_values(value)
    return str(int(value))  # choice: an index


def public_check(kind: str, secret: dict[str, Any], salt: str) -> dict[str, Any]:
    """What the page needs to check a response: hashes and sealed texts, no answer."""
    out: dict[str, Any] = {"salt": salt, "hint": secret["hint"], "stronger": secret["stronger"]}
    if kind == "number":
        out["tol"] = secret["tol"]
    if kind == "formula":
        out["points"] = secret["points"]
    if kind == "choices":
        right = set(secret["answer"])
        hints = {int(k): t for k, t in secret["hints"]}
        n = secret["n_choices"]
        out["members"] = [digest(salt, f"{c}:{int(c in right)}") for c in range(n)]
        out["member_hints"] = {str(c): seal(salt, f"{c}:{int(c not in right)}", hints[c])
                               for c in range(n) if c in hints}
        answer_text = ",".join(str(c) for c in sorted(right))
        out["answer"] = digest(salt, answer_text)
        out["why"] = seal(salt, answer_text, secret["why"])
        return out
    answer = canonical(kind, secret["answer"], secret.get("tol"))
    out["answer"] = digest(salt, answer)
    out["why"] = seal(salt, answer, secret["why"])
    out["hints"] = []
    for key, text in secret["hints"]:
        wrong = canonical(kind, key, secret.get("tol"))
        out["hints"].append([digest(salt, wrong), seal(salt, wrong, text)])
    if kind == "fraction":  # "close but not exact": a grid of a hundredth of the answer's size
        n, d = (int(x) for x in secret["answer"])
        size = abs(n / d) if n else 1.0
        step_exp = math.floor(math.log10(size)) - 2
        out["close_exp"] = step_exp
        out["close"] = digest(salt, "close:" + _close_index(n / d, step_exp))
    return out


def _close_index(value: float, step_exp: int) -> str:
    scaled = value * 10.0 ** -step_exp if step_exp < 0 else value / 10.0 ** step_exp
    return str(math.floor(scaled + 0.5))


def salt_for(spec: dict[str, Any]) -> str:
    """A salt of its own for each instance, the same in every build of the same lesson."""
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]
