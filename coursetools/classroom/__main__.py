"""``python -m coursetools.classroom``: set up, check and run a class on one JupyterHub.

Examples
--------
sudo .venv/bin/python -m coursetools.classroom setup --instructor alice --lesson 03
sudo .venv/bin/python -m coursetools.classroom check
sudo .venv/bin/python -m coursetools.classroom roster import students.csv
sudo .venv/bin/python -m coursetools.classroom export-grades --format canvas --out grades.csv
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from coursetools.classroom.settings import AUTHENTICATORS, ClassSettings, load_settings
from coursetools.shared.common import CourseToolsError, lesson_notebooks, run_cli

DEFAULT_DIR = Path(os.environ.get("PERCEPTRON_CLASS_DIR", "/srv/perceptron-course"))


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m coursetools.classroom", description=__doc__.split("\n")[0])
    p.add_argument("--dir", type=Path, default=DEFAULT_DIR,
                   help=f"the class folder (default {DEFAULT_DIR}, or $PERCEPTRON_CLASS_DIR)")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("setup", help="write jupyterhub_config.py, the role configs, the exchange, the course")
    s.add_argument("--instructor", required=True, help="the instructor's system user (the hub's admin)")
    s.add_argument("--course-id", default="perceptron-course")
    s.add_argument("--course-root", type=Path, help="course folder (default ~INSTRUCTOR/COURSE_ID)")
    s.add_argument("--exchange", type=Path, default=Path("/srv/nbgrader/exchange"),
                   help="nbgrader's exchange root (default /srv/nbgrader/exchange), or 'service': "
                        "the ngshare exchange service behind the hub (no shared folder)")
    s.add_argument("--gradebook-url", default="",
                   help="a shared gradebook, postgresql+psycopg2://USER:PASSWORD@HOST/DB, for several "
                        "autograde workers (default: SQLite in the course folder)")
    s.add_argument("--service-port", type=int, default=10101,
                   help="with --exchange service: the service's loopback port (default 10101)")
    s.add_argument("--ip", default="127.0.0.1",
                   help="address the hub listens on (default loopback, behind the HTTPS proxy)")
    s.add_argument("--ssl-cert", default="", help="TLS certificate (PEM) when the hub itself serves HTTPS")
    s.add_argument("--ssl-key", default="", help="TLS key (PEM) for --ssl-cert")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--hub-port", type=int, default=8081, help="the hub's internal API port")
    s.add_argument("--proxy-api-port", type=int, default=8001, help="the proxy's internal API port")
    s.add_argument("--admin", action="append", default=[], help="another hub admin (repeatable)")
    s.add_argument("--lesson", action="append", default=[], metavar="NN",
                   help="lesson number to copy into source/ (repeatable; default all lessons)")
    s.add_argument("--authenticator", choices=AUTHENTICATORS, default="pam",
                   help="pam (real use, default) or dummy (TESTS ONLY: one shared password)")
    s.add_argument("--test-password", default="", help="the dummy authenticator's password")

    sub.add_parser("check", help="check the class folder, the exchange and the tools; exit 1 on a problem")

    r = sub.add_parser("roster", help="the class list")
    rsub = r.add_subparsers(dest="roster_command", required=True)
    ri = rsub.add_parser("import", help="CSV (id, first name, last name, email) -> gradebook, all or none")
    ri.add_argument("file", type=Path)

    e = sub.add_parser("export-grades", help="grades per student (and per exercise) for an LMS")
    e.add_argument("--format", choices=("canvas", "moodle"), required=True)
    e.add_argument("--per", choices=("exercise", "assignment"), default="exercise",
                   help="one column per graded cell plus totals (default), or totals only")
    e.add_argument("--out", type=Path, required=True)

    c = sub.add_parser("edited-checks", help="list submissions whose check cells were changed")
    c.add_argument("assignment")

    rp = sub.add_parser("report", help="the class report of an assignment (HTML and CSV)")
    rp.add_argument("assignment", nargs="?", help="the assignment (or --all)")
    rp.add_argument("--all", action="store_true", help="every assignment, and a course page")
    rp.add_argument("--course", type=Path, help="the course folder (default: the class's)")
    rp.add_argument("--out", type=Path, help="where to write (default COURSE/reports/)")

    lo = sub.add_parser("lesson-options", help="question records and own numbers for the students")
    lo.add_argument("--record-questions", choices=("on", "off"), default="off",
                    help="keep each try at a self-check question in the student's notebook")
    lo.add_argument("--own-numbers", choices=("on", "off"), default="off",
                    help="each student's own data in the exercises that use perclib.classroom")
    return p


def _lessons(numbers: list[str]) -> list[Path]:
    lessons = lesson_notebooks()
    if not numbers:
        return lessons
    chosen = []
    for n in numbers:
        match = [p for p in lessons if p.name.startswith(f"{int(n):02d}_")] if n.isdigit() else []
        if not match:
            raise CourseToolsError(f"--lesson {n}: no lesson notebooks/{n}_*.ipynb")
        chosen += match
    return chosen


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    # nbgrader imports jupyter_server, whose event schemas load jsonschema's format
    # checkers; with rfc3987-syntax installed that builds 38 Lark grammars at import
    # (7 s here, each run). This command validates no event: without that optional
    # module jsonschema skips those formats.
    sys.modules.setdefault("rfc3987_syntax", None)
    # nbgrader runs its environment's `alembic` when it creates a gradebook.
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    if args.command == "setup":
        from coursetools.classroom.setup import write_class

        settings = ClassSettings(
            class_dir=args.dir.resolve(), instructor=args.instructor, course_id=args.course_id,
            course_root=args.course_root, ip=args.ip,
            exchange_service=str(args.exchange) == "service", service_port=args.service_port,
            gradebook_db_url=args.gradebook_url,
            **({} if str(args.exchange) == "service" else {"exchange_root": args.exchange.resolve()}),
            port=args.port, hub_port=args.hub_port, proxy_api_port=args.proxy_api_port,
            authenticator=args.authenticator, test_password=args.test_password, admins=args.admin,
            ssl_cert=args.ssl_cert, ssl_key=args.ssl_key,
        )
        written = write_class(settings, _lessons(args.lesson))
        for path in written:
            print(f"wrote {path}")
        print(f"start the hub: cd {settings.class_dir} && sudo {settings.env_bin}/jupyterhub "
              f"-f {settings.hub_config}")
        return
    if args.command == "report":
        from coursetools.classroom.report_html import write_all, write_report

        if bool(args.all) == bool(args.assignment):
            raise CourseToolsError("report: give one ASSIGNMENT or --all")
        course = args.course or load_settings(args.dir).course_root
        index = write_all(course, args.out) if args.all else write_report(course, args.assignment, args.out)
        print(f"wrote {index} (the class; no names) and, per assignment, students.html "
              "(instructor only)")
        return
    settings = load_settings(args.dir)
    if args.command == "check":
        from coursetools.classroom.setup import check_class, memory_note

        problems = check_class(settings)
        note = memory_note(settings)
        if note:
            print(f"warning: {note}", file=sys.stderr)
        if settings.authenticator == "dummy":
            print("warning: TEST-ONLY dummy login (one shared password); "
                  "rerun setup with --authenticator pam for a real class", file=sys.stderr)
        if problems:
            raise CourseToolsError("\n  " + "\n  ".join(problems))
        print(f"ok: class {settings.course_id!r} in {settings.class_dir}, exchange {settings.exchange_root}, "
              f"course {settings.course_root}, hub on "
              f"{'https' if settings.ssl_cert else 'http'}://{settings.ip}:{settings.port}")
    elif args.command == "roster":
        from coursetools.classroom.roster import import_roster

        students = import_roster(settings, args.file)
        if settings.exchange_service:  # the service knows the course's students too
            from coursetools.classroom.service import enrol

            enrol(settings, students)
        print(f"imported {len(students)} students into {settings.course_root / 'gradebook.db'}; "
              "restart the hub so that they can log in")
    elif args.command == "export-grades":
        from coursetools.classroom.grades import write_grades

        out = write_grades(settings, args.out, args.format, args.per)
        print(f"wrote {out}")
    elif args.command == "lesson-options":
        from nbgrader.api import Gradebook

        from coursetools.classroom.report_options import write_lesson_options

        with Gradebook(settings.gradebook_url) as gb:
            students = sorted(s.id for s in gb.students)
        path = write_lesson_options(settings.class_dir, settings.course_root, settings.instructor, students,
                                    record_questions=args.record_questions == "on",
                                    own_numbers=args.own_numbers == "on")
        print(f"wrote {path}; students' kernels started from now on use it "
              "(run again after a roster import: new students get their keys)")
    elif args.command == "edited-checks":
        from coursetools.classroom.grades import edited_checks

        found = edited_checks(settings, args.assignment)
        for e in found:
            if e.problem:
                print(f"{e.student}: {e.notebook}: {e.problem}: look at this submission by hand")
            else:
                print(f"{e.student}: {e.notebook}: check cell {e.cell} was edited "
                      "(autograde ran the original)")
        if not found:
            print(f"no edited check cell in the submissions of {args.assignment}")


if __name__ == "__main__":
    raise SystemExit(run_cli(main))
