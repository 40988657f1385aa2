"""The course website (``python -m coursetools.site``): the build (``build``), its
questions (``questions``, ``questions.js``), the safety gate (``safety``), accessibility
fixes (``a11y``) and the page-weight budget (``page_weight``)."""
