# Every user's server (students and the instructor): the course's environment.
# Build from the repository's root:
#   docker build -f deploy/singleuser.Dockerfile -t REGISTRY/perceptron-course-class:2026.11 .
FROM quay.io/jupyter/base-notebook:python-3.11
COPY --chown=${NB_UID}:${NB_GID} . /opt/perceptron-course
RUN pip install --no-cache-dir -e "/opt/perceptron-course[classroom]" /opt/perceptron-course/course-settings \
 && pip install --no-cache-dir --no-deps "ngshare_exchange==0.5.3"
# ngshare_exchange pins jupyter_core<4.11.2, which pip cannot resolve next to nbgrader 0.9:
# --no-deps; its real needs (requests, rapidfuzz) come with the classroom extra.
