"""What several products share: paths and errors (``common``), cell roles (``roles``),
the Colab cell, question cells, MathJax and ASCII maths, static cell outputs (``cells``),
question printing, the headless browser, and the kernel-free players (``players``).

Nothing here imports a product package (site, slides, handouts, homework, classroom)."""
