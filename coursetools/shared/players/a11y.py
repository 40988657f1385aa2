"""What a player says in words: its controls' values, and the data behind its figure.

A site player (``coursetools.shared.players.frames.player_html``) is a set of sliders over frames drawn
at build time. For a reader who cannot see the figure it must say the same things in
words (issue 43, following the WAI-ARIA slider pattern and WCAG 2.2):

* :func:`spoken_values`: each slider position as words with units, the slider's
  ``aria-valuetext`` ("threshold theta minus 0.50", "update 12 of 40", "angle of w
  30 degrees"), from :data:`SPOKEN`, one template per varying control of every
  :data:`coursetools.shared.players.frames.GRIDS` entry (a test checks that none is missing);
* :func:`data_table`: a ``<details>`` disclosure with the data behind the figure, one
  table row per frame: the control values and the figure's readout at those values
  (its status line, without the parts every frame shares, which the caption says once).

The change sentence of each frame (what it shows that the previous one did not) and
the one announcement after the last key press are made in the browser
(``coursetools.shared.players.assets``) from the same words.

Examples
--------
>>> spoken_number("-0.75")
'minus 0.75'
>>> spoken_values("05_convergence:build_training_stepper",
...               {"name": "k", "label": "update k", "labels": ["0", "1", "2"]})
['update 0 of 2', 'update 1 of 2', 'update 2 of 2']
"""

from __future__ import annotations

import html
import re
from typing import Any

#: Words for each varying control of every player, keyed like ``frames.GRIDS``.
#: ``{v}`` is the position's label read as words (a minus sign as "minus"), ``{last}``
#: the label of the control's last position. A new slider figure adds its line here.
SPOKEN: dict[str, dict[str, str]] = {
    "01_threshold_units:build_threshold_demo": {
        "angle": "angle of w {v} degrees", "theta": "threshold theta {v}"},
    "01_threshold_units:build_bias_trick_demo": {
        "angle": "angle of w {v} degrees", "theta": "threshold theta {v}"},
    "02_xor:build_boolean_separator": {
        "function": "Boolean function {v}", "angle": "angle of w {v} degrees"},
    "03_general_position:build_point_mover": {
        "D x": "point D, x coordinate {v}", "D y": "point D, y coordinate {v}"},
    "04_cover_counting:build_dichotomy_explorer": {
        "labelling": "labelling {v} of {last}", "threshold": "threshold {v}"},
    "04_cover_counting:build_capacity_curve": {
        "N": "dimension N {v}", "P": "{v} points P"},
    "05_convergence:build_training_stepper": {"k": "update {v} of {last}"},
    "05_convergence:build_margin_explorer": {"margin": "teacher margin gamma {v}"},
    "06_margins:build_margin_family": {
        "gamma": "margin level gamma {v}", "angle": "angle of w {v} degrees"},
    "06_margins:build_margin_training": {
        "algorithm": "rule {v}", "step": "update {v} of {last}"},
    "07_nonseparable:build_noise_comparison": {"noise": "label noise {v} (share flipped)"},
    "08_kernels:build_kernel_boundary": {
        "data": "data set {v}", "degree": "polynomial degree {v}, left",
        "width": "Gaussian width sigma {v}, right"},
    "09_statistical_mechanics:build_capacity_explorer": {"kappa": "stability kappa {v}"},
    "09_statistical_mechanics:build_learning_explorer": {
        "alpha": "load alpha {v} examples per weight"},
}

#: Curve figures that can be heard (issue 43, optional sound): the control swept, what
#: is heard (said on the button) and a pattern whose first group is the number read
#: from the readout at each position. Pitch rises with the number; the sweep starts
#: only from the button.
SOUND: dict[str, tuple[str, str, str]] = {
    "04_cover_counting:build_capacity_curve": (
        "P", "the separable fraction as P grows", r"= ([0-9.eE+-]+) \(one half"),
    "05_convergence:build_margin_explorer": (
        "margin", "the perceptron's mistakes as the margin grows", r"made (\d+) mistake"),
    "09_statistical_mechanics:build_capacity_explorer": (
        "kappa", "the capacity alpha c as kappa grows", r"prediction αc = ([0-9.]+)"),
    "09_statistical_mechanics:build_learning_explorer": (
        "alpha", "the maximum-margin error as alpha grows", r"εmax margin = ([0-9.]+)"),
}

_GREEK = {"α": "alpha", "γ": "gamma", "θ": "theta", "κ": "kappa", "σ": "sigma", "ε": "epsilon",
          "‖w‖": "length of w", "°": " degrees"}


def spoken_number(label: str) -> str:
    """A position's label as a screen reader should say it: signs and symbols in words.

    >>> spoken_number("−1.5"), spoken_number(" 1  NOR  (1000)"), spoken_number("θ")
    ('minus 1.5', '1 NOR (1000)', 'theta')
    """
    text = re.sub(r"\s+", " ", label).strip()
    text = re.sub(r"(^|[\s(])[-−](?=\d|\.\d)", r"\1minus ", text)
    for symbol, words in _GREEK.items():
        text = text.replace(symbol, words)
    return re.sub(r"\s+", " ", text).strip()


def spoken_values(key: str, control: dict[str, Any]) -> list[str]:
    """The ``aria-valuetext`` of every position of a manifest's control.

    ``key`` is the player's ``"stem:builder"``; a control without a template in
    :data:`SPOKEN` reads as its label (Greek letters spelled out) and its value.
    """
    template = SPOKEN.get(key, {}).get(control["name"])
    if template is None:
        template = spoken_number(control["label"]) + " {v}"
    last = spoken_number(control["labels"][-1])
    return [template.format(v=spoken_number(label), last=last) for label in control["labels"]]


_BREAK = re.compile(r"<br\s*/?>", flags=re.I)
_BAR = re.compile(r"(?:&nbsp;|\s)*\|(?:&nbsp;|\s)*")


def status_segments(status_html: str) -> list[str]:
    """A status line as plain text segments: split at its line breaks and its ``|``.

    >>> status_segments("w = <b>1</b> &nbsp;|&nbsp; 3 mistakes<br>margin &gamma; = 0.2")
    ['w = 1', '3 mistakes', 'margin γ = 0.2']
    """
    out = []
    for line in _BREAK.split(status_html):
        for part in _BAR.split(line):
            text = html.unescape(re.sub(r"<[^>]+>", "", part))
            text = re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip()
            if text:
                out.append(text)
    return out


def sound_sweep(key: str, manifest: dict[str, Any]) -> dict[str, Any] | None:
    """The numbers a player's sound button plays, or None if the figure has no sound.

    Returns ``{"k": control index, "label": what is heard, "values": [...]}``: one number
    per position of the swept control, the other controls at the lesson's values.

    >>> m = {"controls": [{"name": "kappa", "values": [0, 1], "start": 0}],
    ...      "frames": [["", "prediction α<sub>c</sub> = <b>2.000</b>", ""],
    ...                 ["", "prediction α<sub>c</sub> = <b>1.500</b>", ""]]}
    >>> sound_sweep("09_statistical_mechanics:build_capacity_explorer", m)["values"]
    [2.0, 1.5]
    """
    if key not in SOUND:
        return None
    name, label, pattern = SOUND[key]
    controls = manifest["controls"]
    k = [c["name"] for c in controls].index(name)
    sizes = [len(c["values"]) for c in controls]
    values = []
    for p in range(sizes[k]):
        index = 0
        for j, c in enumerate(controls):
            index = index * sizes[j] + (p if j == k else c["start"])
        text = " | ".join(status_segments(manifest["frames"][index][1]))
        found = re.search(pattern, text)
        if found is None:
            raise ValueError(f"{key}: no number matching {pattern!r} in {text!r}")
        values.append(float(found.group(1)))
    return {"k": k, "label": label, "values": values}


def data_table(key: str, manifest: dict[str, Any], uid: str) -> str:
    """The ``<details>`` with the data behind a player's figure: a row per frame.

    Columns: each varying control (its label as header, its value with the sign in
    words), then the
    figure's readout at those values: the status line's segments that differ between
    frames. Segments the same in every frame (a colour key, a fixed count) are said
    once in the caption.
    """
    controls = manifest["controls"]
    sizes = [len(c["values"]) for c in controls]
    # The column's header names the control: a cell says its value only, in words.
    spoken = [[spoken_number(label) for label in c["labels"]] for c in controls]
    segments = [status_segments(frame[1]) for frame in manifest["frames"]]
    common = set(segments[0]).intersection(*segments[1:]) if segments else set()
    shared = [s for s in segments[0] if s in common] if segments else []
    rows = []
    for index, segs in enumerate(segments):
        pos, rest = [], index
        for size in reversed(sizes):
            pos.append(rest % size)
            rest //= size
        pos.reverse()
        cells = "".join(f"<td>{html.escape(spoken[k][p])}</td>" for k, p in enumerate(pos))
        readout = "; ".join(s for s in segs if s not in common) or "(as in the caption)"
        rows.append(f"<tr>{cells}<td>{html.escape(readout)}</td></tr>")
    caption = "The figure's readout for every position of the controls above."
    if shared:
        caption += " In every row: " + "; ".join(shared) + "."
    return _table_details(uid, caption, [c["label"] for c in controls], rows,
                          extra_column="readout")


def _table_details(uid: str, caption: str, columns: list[str], rows: list[str],
                   extra_column: str = "") -> str:
    """A closed ``<details>`` holding a table: its caption, headers and ready ``<tr>`` rows.

    The summary names the columns and the rows: it also names the scrolling region,
    which must differ from any other table's on the page (axe: landmark-unique).
    """
    heads = "".join(f'<th scope="col">{html.escape(c)}</th>' for c in columns)
    if extra_column:
        heads += f'<th scope="col">{html.escape(extra_column)}</th>'
    what = " and ".join(html.escape(c) for c in columns)
    return (
        f'<details class="pp-table" id="{uid}-table"><summary id="{uid}-summary">The data behind '
        f"this figure, as a table: {what}, {len(rows)} rows</summary>"
        f'<div class="pp-table-scroll" tabindex="0" role="region" aria-labelledby="{uid}-summary">'
        f"<table><caption>{html.escape(caption)}</caption><thead><tr>{heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div></details>"
    )


def figure_data_table(spec: dict[str, Any], uid: str) -> str:
    """The ``<details>`` with the numbers behind a still curve figure
    (``perclib.plotting.CourseFigure.set_data_table``), marked up as a player's table.

    >>> print(figure_data_table({"caption": "C(P, 2) for small P.", "columns": ["P", "C"],
    ...                          "rows": [["1", "2"]]}, "f1"))  # doctest: +ELLIPSIS
    <details class="pp-table" id="f1-table"><summary id="f1-summary">The data behind ...
    """
    rows = ["<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>"
            for row in spec["rows"]]
    return _table_details(uid, spec["caption"], spec["columns"], rows)
