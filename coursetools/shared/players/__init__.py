"""The kernel-free players: frames rendered from a lesson's slider figures (``frames``),
their script and style (``assets``) and their accessible text (``a11y``). The site and
the slides show them."""
