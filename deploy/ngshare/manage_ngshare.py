"""Create a course, its instructors and students in ngshare's database (classroom setup).

python manage_ngshare.py DB_URL STORAGE course COURSE INSTRUCTOR...
python manage_ngshare.py DB_URL STORAGE students COURSE ROSTER.json
"""
import json
import sys
from collections import namedtuple

from ngshare import dbutil
from ngshare.database import Course, StudentAssociation, User
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

db_url, storage, action, course_id, *rest = sys.argv[1:]
# The same schema upgrade ngshare runs when it starts.
dbutil.upgrade(db_url, cmd_opts=namedtuple("CmdOpts", ["x"])(["data=true", "storage=" + storage]))
session = sessionmaker(bind=create_engine(db_url))()


def user(name):
    found = session.query(User).filter(User.id == name).one_or_none()
    if found is None:
        found = User(name)
        session.add(found)
    return found


course = session.query(Course).filter(Course.id == course_id).one_or_none()
if action == "course":
    if course is None:
        course = Course(course_id, [])
        session.add(course)
    for name in rest:
        teacher = user(name)
        if teacher in course.students:
            course.students.remove(teacher)
        if teacher not in course.instructors:
            course.instructors.append(teacher)
    session.commit()
    print("instructors", sorted(u.id for u in course.instructors))
elif action == "students":
    if course is None:
        sys.exit(f"no course {course_id!r} in {db_url}: rerun classroom setup")
    with open(rest[0], encoding="utf-8") as f:
        rows = json.load(f)
    for row in rows:
        student = user(row["id"])
        if student in course.instructors:
            sys.exit(f"{row['id']!r} teaches {course_id!r}: not enrolled as a student")
        if student not in course.students:
            course.students.append(student)
        link = StudentAssociation.find(session, student, course)
        link.first_name, link.last_name, link.email = row["first_name"], row["last_name"], row["email"]
    session.commit()
    print("students", len(course.students))
else:
    sys.exit(f"unknown action {action!r}")
