"""nbgrader's release to the ngshare service, verified by listing it back.

``ngshare_exchange``'s release logs a warning and returns when the service refuses or
fails to store an assignment, so ``nbgrader release_assignment`` exits 0 and the
instructor believes the homework is out (and with SQLAlchemy 2 on the service side,
ngshare itself answered "success" and stored nothing). ``VerifiedReleaseAssignment``
releases as before, then asks the service for the assignment's file list and compares
it, file by file (path and MD5), with the release folder; any difference is an error
that names what is missing, so the command fails.

The instructor's ``nbgrader_config.py`` (``setup --exchange service``) sets
``c.ExchangeFactory.release_assignment`` to it. Importing this module needs
``ngshare_exchange`` on ``sys.path`` (the same config puts it there).

"""

from __future__ import annotations

from ngshare_exchange.release_assignment import ExchangeReleaseAssignment

from coursetools.classroom.service import differences, local_checksums


class VerifiedReleaseAssignment(ExchangeReleaseAssignment):
    """``ngshare_exchange``'s release, then a check that the service holds every file."""

    def copy_files(self) -> None:  # noqa: D102 - theirs, then the check
        super().copy_files()
        course, assignment = self.coursedir.course_id, self.coursedir.assignment_id
        where = f"{self.ngshare_url}/assignment/{course}/{assignment}"
        listing = self.ngshare_api_get(f"/assignment/{course}/{assignment}", params={"list_only": "true"})
        if listing is None:
            self.fail(f"release of {assignment!r} did not reach the exchange: {where} does not list "
                      "it (see the error above; is the hub up and this user the course's instructor?)")
        remote = {entry["path"]: entry["checksum"] for entry in listing.get("files", [])}
        problems = differences(remote, local_checksums(self.src_path))
        if problems:
            self.fail(f"release of {assignment!r} did not reach the exchange intact ({where}): "
                      + "; ".join(problems) + ". Release again with --force.")
        self.log.info("Verified on the exchange: %s (%d files)", where, len(remote))
