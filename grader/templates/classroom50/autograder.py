"""Classroom 50 autograder for the fencing kit: grades the student's checkout with the kit's hidden tests.

Classroom 50 runs this file once per submission, in the student's checkout, with the assignment's identity in its
environment (CLASSROOM, ASSIGNMENT, SUBMISSION_TAG, COMMIT_URL, RELEASE_URL, REVIEW_URL). It writes ./result.json
(schema classroom50/result/v1: one entry per graded test, the kit's own report fields kept on each) and
./release-body.md (the grader's summary.md, the student's own report, as it is), and exits 0 when
grading ran, whatever the score; it exits non-zero, and writes no result, when grading could not run (etcd did not
answer, the build failed), which Classroom 50 reports as an infrastructure error rather than a score.

The kit comes from kit.tar.gz beside this file (./kit package classroom50 writes both), or from KIT_DIR, a kit already
on the machine. Only the Python standard library is used.
"""

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Building the grader takes a minute or two on a fresh runner; the job itself stops at 15 minutes.
BUILD_AND_GRADE_SECONDS = 12 * 60


def kit_directory(scratch: Path) -> Path:
    """Returns the kit to grade with: KIT_DIR, or the bundle beside this file unpacked into scratch."""
    configured = os.environ.get("KIT_DIR")
    if configured:
        kit = Path(configured)
        if not (kit / "kit").is_file():
            sys.exit(f"autograder: KIT_DIR={configured} is not the fencing kit (no ./kit there)")
        return kit
    bundle = HERE / "kit.tar.gz"
    if not bundle.is_file():
        sys.exit(f"autograder: no kit: neither KIT_DIR nor {bundle} (write it with ./kit package classroom50)")
    kit = scratch / "kit"
    with tarfile.open(bundle) as archive:
        archive.extractall(kit, filter="data")
    return kit


def used_sudo() -> bool:
    """Whether grading runs under sudo: not as root already, and sudo is there and asks for no password."""
    if os.geteuid() == 0 or shutil.which("sudo") is None:
        return False
    return subprocess.run(["sudo", "-n", "true"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def grading_command(kit: Path, checkout: Path, out: Path) -> list:
    """Returns the command that grades the checkout: as root where sudo allows, so that the tests run as nobody."""
    command = [str(kit / "kit"), "grade", str(checkout), "--out", str(out), "--platform", "classroom50"]
    if not used_sudo():
        return command
    # The variables the grader reads pass through sudo, which otherwise resets the environment.
    keep = ["PATH", "JAVA_HOME", "CLASSROOM", "ASSIGNMENT", "SUBMISSION_TAG", "COMMIT_URL", "RELEASE_URL", "REVIEW_URL",
            "ETCD_ENDPOINTS", "KIT_ETCD"]
    variables = [f"{name}={os.environ[name]}" for name in keep if name in os.environ]
    return ["sudo", "-n", "env"] + variables + command


def main() -> int:
    checkout = Path.cwd()
    scratch = Path(tempfile.mkdtemp(prefix="fencing-autograder-"))
    try:
        kit = kit_directory(scratch)
        out = scratch / "report"
        try:
            grade = subprocess.run(grading_command(kit, checkout, out), timeout=BUILD_AND_GRADE_SECONDS)
        except subprocess.TimeoutExpired:
            print(f"autograder: grading did not end within {BUILD_AND_GRADE_SECONDS} s", file=sys.stderr)
            return 1
        result = out / "classroom50" / "result.json"
        if grade.returncode != 0 or not result.is_file():
            # Exit 3 is the kit's "grading could not run": a failure of the machine's or the grader's, not a score.
            print(f"autograder: grading could not run (exit {grade.returncode}); see the log above", file=sys.stderr)
            return 1
        shutil.copyfile(result, checkout / "result.json")
        # The Release's body: the student's own report. The staff's (staff-notes.md) stays in scratch, removed below:
        # the checkout and this job's log are the student's to read.
        body = out / "summary.md"
        shutil.copyfile(body, checkout / "release-body.md")
        print(body.read_text(encoding="utf-8"))
        return 0
    finally:
        # Files the grader wrote as root (under sudo) go with root's rights.
        remove = ["rm", "-rf", str(scratch)]
        subprocess.run(remove if os.geteuid() == 0 or not used_sudo() else ["sudo", "-n"] + remove, check=False)


if __name__ == "__main__":
    sys.exit(main())
