"""Check lines written with ASCII maths, typeset: ``k gamma <= ||w_k||`` -> ``$k \\gamma \\le \\|w_{k}\\|$``.

A lesson's check cell prints one ``✓`` line in plain text (a notebook output), so its
formulas are written the programmer's way: ``R^2/gamma^2``, ``sqrt(k) R``, ``k*(b)``,
``w0``, ``u.w_k``. A slide typesets them. :func:`check_line_tex` finds the formula
spans of a line (runs of chunks with an operator, a Greek name, a subscript or a power,
with the numbers and one-letter names around them; a clause ends at ``;``, ``:`` or a
comma outside parentheses; a quoted piece of code such as ``'< 0'`` is a formula of its
own) and writes each as TeX between ``$``; the prose stays as it is.

Examples
--------
>>> check_line_tex("✓ k gamma <= u.w_k <= ||w_k|| <= sqrt(k) R at all 123 updates")
'✓ $k \\\\gamma \\\\le u \\\\cdot w_{k} \\\\le \\\\|w_{k}\\\\| \\\\le \\\\sqrt{k} R$ at all 123 updates'
>>> check_line_tex("✓ sympy: k*(b) decreases in b")
'✓ sympy: $k^{*}(b)$ decreases in b'
>>> check_line_tex("✓ the perceptron made 12 updates")
'✓ the perceptron made 12 updates'
"""

from __future__ import annotations

import re

GREEK = set(("alpha beta gamma delta epsilon eta theta kappa lambda mu nu xi pi rho sigma tau phi chi psi "
             "omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega").split())
NAMED = {"eps": r"\varepsilon", "epsilon": r"\varepsilon", "phi": r"\varphi", "sqrt": r"\sqrt",
         "arccos": r"\arccos", "exp": r"\exp", "log": r"\log", "Var": r"\operatorname{Var}"}
#: Greek letters written in Unicode, by name (then typeset as any name is).
GREEK_UNICODE = {"φ̂": "phi_hat", "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "eps",
                 "η": "eta", "θ": "theta", "κ": "kappa", "μ": "mu", "π": "pi", "σ": "sigma", "φ": "phi"}
UNICODE = {"≤": r"\le", "≥": r"\ge", "≠": r"\ne", "−": "-", "Σ": r"\sum", "·": r"\cdot", "→": r"\to"}
#: What makes a chunk of a line maths: an operator, a norm, a subscript, a starred name,
#: a square root, a dot product of two letters (not an abbreviation such as "s.e.").
STRONG = re.compile(r"<=|>=|!=|\*\*|\^|[=<>~≤≥≠/²Σ]|\|\||\+-|\w_\w|\b[a-zA-Z]\*|\bsqrt\("
                    r"|\b[A-Za-z]\.[A-Za-z]\b(?!\.)")
FUNC_CALL = re.compile(r"^(?:[A-Za-z]|sqrt|arccos|exp|log|phi|Phi|Var|max|min|E)\(")
WEAK = re.compile(r"^(?:\(?-?\d[\d.,]*(?:e-?\d+)?%?\)?|-?[A-Za-z]\d?|[A-Za-z]_\w+|[+\-*%]|\.\.|\d+[A-Za-z])$")
QUOTED = re.compile(r"'([^'a-zA-Z]{1,8})'")


def _greek(name: str) -> str | None:
    if name in GREEK:
        return "\\" + name
    return NAMED.get(name)


def _ident(m: re.Match) -> str:
    word = m.group(0)
    base, *subs = word.split("_")
    tex = _greek(base) or base
    for sub in subs:
        if sub == "hat":
            tex = f"\\hat{{{tex}}}"
        elif sub in ("max", "min"):
            tex += f"_{{\\{sub}}}"
        else:
            inner = _greek(sub) or (sub if len(sub) == 1 or sub.isdigit() else f"\\text{{{sub}}}")
            tex += f"_{{{inner}}}"
    return tex


def _braced_sqrt(s: str) -> str:
    """sqrt(...) -> \\sqrt{...}, parentheses inside kept (balanced)."""
    while (start := s.find("sqrt(")) >= 0:
        depth, end = 0, None
        for k in range(start + 4, len(s)):
            depth += {"(": 1, ")": -1}.get(s[k], 0)
            if depth == 0:
                end = k
                break
        if end is None:
            break
        s = s[:start] + "\\sqrt{" + s[start + 5:end] + "}" + s[end + 1:]
    return s


def to_tex(span: str) -> str:
    """One formula span of a check line, written the ASCII way, as TeX.

    >>> to_tex("R^2/gamma*^2"), to_tex("2^(2N−1)"), to_tex("γ_max")
    ('R^{2}/\\\\gamma^{*2}', '2^{2N- 1}', '\\\\gamma_{\\\\max}')
    """
    s = span
    s = s.replace("\x01", " ")
    for uni, name in GREEK_UNICODE.items():
        s = re.sub(rf"(?<=\d){uni}", " " + uni, s)
        s = re.sub(rf"{uni}(?=[A-Za-z0-9])", name + " ", s).replace(uni, name)
    s = s.replace("<|u|>", r"\langle |u| \rangle").replace("->", r"\to ")
    s = re.sub(r"([A-Za-z]+)\*\^(\w+)", r"\1^{*\2}", s)
    s = re.sub(r"\|\|([^|]+)\|\|", r"\\|\1\\|", s)
    for uni, tex in UNICODE.items():
        s = s.replace(uni, tex + " ")
    s = s.replace("²", "^{2}")
    s = re.sub(r"<=", r"\\le ", s)
    s = re.sub(r">=", r"\\ge ", s)
    s = re.sub(r"!=", r"\\ne ", s)
    s = s.replace("+-", r"\pm ")
    s = s.replace("**", "^")
    s = s.replace("%", r"\%")
    s = re.sub(r"(?<![\\\w])~", r"\\sim ", s)
    # k* -> k^*: a starred name (before "(", "^", a space or the end)
    s = re.sub(r"\b([A-Za-z])\*(?=[(^\s]|$)", r"\1^{*}", s)
    # exponents: ^(...) and ^token
    s = re.sub(r"\^\(([^()]*)\)", r"^{\1}", s)
    s = re.sub(r"\^(?!\{)(-?[\w.]+?)(?=[^\w.]|$|\.(?:\D|$))", r"^{\1}", s)
    s = re.sub(r"\^\{\^\{\*\}", "^{*", s)
    s = _braced_sqrt(s)
    # identifiers (with subscripts), greek names, functions
    s = re.sub(r"(?<![\\{])\b[A-Za-z][A-Za-z]*(?:_[A-Za-z0-9]+)*\b", _ident, s)
    s = re.sub(r"\b([a-zA-Z])(\d)\b", r"\1_\2", s)  # w0 -> w_0
    s = re.sub(r"(?<=[\w}|)])\.(?=[A-Za-z\\(])", r" \\cdot ", s)  # u.w_k, w.x, phi(x).phi(z)
    s = re.sub(r"(?<=[\w})])\s*\*\s*(?=[\w(\\])", r" \\cdot ", s)
    return " ".join(s.split())


def _gap(kinds: list[str | None], j: int) -> bool:
    """A space between two chunks of maths."""
    return kinds[j] is None and j + 1 < len(kinds) and kinds[j + 1] in ("strong", "weak")


def _opens(chunk: str) -> bool:
    return chunk.count("(") > chunk.count(")")


def split_maths(line: str) -> list[tuple[bool, str]]:
    """(is maths, text) pieces of a check line written with ASCII maths."""
    line = QUOTED.sub(lambda m: "\x00" + m.group(1).replace(" ", "\x01") + "\x00", line)
    chunks = re.split(r"(\s+)", line)
    kinds = []
    depth = 0
    for chunk in chunks:
        if not chunk or chunk.isspace():
            kinds.append(None)
            continue
        core = chunk.strip(",;:")
        name = core.lstrip("(").split("_")[0]
        strong = bool(STRONG.search(core) or FUNC_CALL.match(core) or "\x00" in core
                      or name.rstrip("*^0123456789") in GREEK or name in NAMED
                      or any(c in core for c in GREEK_UNICODE))
        if depth > 0:
            strong = True
        depth = max(0, depth + core.count("(") - core.count(")")) if (strong or depth) else 0
        weak = WEAK.match(core) and core not in ("a", "A")  # an article is prose
        kinds.append("strong" if strong else "weak" if weak else "text")
    # spans: runs of strong/weak chunks holding at least one strong chunk
    pieces: list[tuple[bool, str]] = []
    i = 0
    while i < len(chunks):
        if kinds[i] in ("strong", "weak"):
            j, depth = i, 0
            while j < len(chunks) and (kinds[j] in ("strong", "weak") or _gap(kinds, j)):
                chunk = chunks[j]
                if "\x00" in chunk and j > i:
                    break  # a quoted piece of code is a formula of its own
                depth += chunk.count("(") - chunk.count(")")
                j += 1
                if "\x00" in chunk or (depth <= 0 and re.search(r"[,;:]$", chunk)):
                    break  # a list, a clause or a quoted piece ends the formula
            while j - 1 > i and kinds[j - 1] in ("weak", None) and _opens(chunks[j - 1]):
                j -= 1  # "(2 left ...": the parenthesis opens prose
            while j - 1 > i and kinds[j - 1] is None:
                j -= 1
            run = chunks[i:j]
            if any(kinds[k] == "strong" for k in range(i, j)):
                text = "".join(run)
                core = text.rstrip(",;:")
                tail = text[len(core):]
                lead = ""
                if core.startswith("(") and core.count("(") > core.count(")"):
                    lead, core = "(", core[1:]
                if core.endswith(")") and core.count(")") > core.count("("):
                    core, tail = core[:-1], ")" + tail
                pieces.append((False, lead))
                pieces.append((True, core.replace("\x00", "")))
                pieces.append((False, tail))
            else:
                pieces.append((False, "".join(run)))
            i = j
        else:
            pieces.append((False, chunks[i].replace("\x00", "'")))
            i += 1
    merged: list[tuple[bool, str]] = []
    for is_math, text in pieces:
        if not text:
            continue
        if merged and merged[-1][0] == is_math and not is_math:
            merged[-1] = (False, merged[-1][1] + text)
        else:
            merged.append((is_math, text))
    return merged


def check_line_tex(line: str) -> str:
    """The line with each formula span as TeX between ``$`` (see the module's examples)."""
    return "".join(f"${to_tex(t)}$" if m else t.replace("\x01", " ") for m, t in split_maths(line))
