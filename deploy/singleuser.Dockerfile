# Every user's server (students and the instructor): the course's environment.
# Build from the repository's root:
#   docker build -f deploy/singleuser.Dockerfile -t REGISTRY/perceptron-course-class:2026.11 .
FROM quay.io/jupyter/base-notebook:python-3.11
USER root
# bubblewrap: the grading sandbox (autograde refuses to run without it).
RUN apt-get update -qq && apt-get install -y -qq bubblewrap && rm -rf /var/lib/apt/lists/*
COPY --chown=${NB_UID}:${NB_GID} . /opt/perceptron-course
RUN pip install --no-cache-dir -e "/opt/perceptron-course[classroom]" /opt/perceptron-course/course-settings \
 && pip install --no-cache-dir --no-deps "ngshare_exchange==0.5.3"
# ngshare_exchange pins jupyter_core<4.11.2, which pip cannot resolve next to nbgrader 0.9:
# --no-deps; its real needs (requests, rapidfuzz) come with the classroom extra.
# The grading sandbox's kernel (what `classroom setup` installs for the instructor), with
# the course folder hidden from the graded code (the home folder always is).
RUN python - <<'PY'
import json, pathlib, sys
from coursetools.classroom.sandbox import KERNEL_NAME, kernel_spec
spec = kernel_spec(sys.executable, [pathlib.Path("/home/jovyan/perceptron-course")])
folder = pathlib.Path(sys.prefix, "share", "jupyter", "kernels", KERNEL_NAME)
folder.mkdir(parents=True, exist_ok=True)
(folder / "kernel.json").write_text(json.dumps(spec, indent=2))
PY
USER ${NB_UID}
