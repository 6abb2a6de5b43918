"""A journal read at its bound (1,000 entries) beside nginx serving the same bytes, for one build or several in one
run (before → after), as scaling.py measures it inside scripts/benchmark: a first-launch session after 1,010
reloads, `GET …/journal` by loadgen at 16 connections, nginx with one worker.

Usage: python3 Benchmarks/harness/journal_reads.py [--seconds 4] [--rounds 2] SCENARIOD [SCENARIOD …]
Needs nginx and gcc (bash scripts/setup nginx gcc)."""
import argparse
import pathlib
import tempfile

import daemon as daemon_module
import load
import nginx as nginx_module
from daemon import call
from scaling import JOURNAL_CAPACITY, read_bytes

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
PATH = "/v1/sessions/journal/journal"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("binaries", nargs="+")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scenariod-journal-") as temporary:
        work = pathlib.Path(temporary)
        work.chmod(0o755)  # nginx's workers read its files
        client = load.build(work)
        for number, binary in enumerate(arguments.binaries):
            daemon = daemon_module.Daemon(binary, REPOSITORY, work / f"daemon-{number}").start()
            connection = daemon.connection()
            try:
                call(connection, "POST", "/v1/sessions", {"scenario": "first-launch", "id": "journal"}, expect=201)
                for _ in range(JOURNAL_CAPACITY + 10):
                    call(connection, "POST", "/v1/sessions/journal/actions/reload", expect=200)
                body = read_bytes(connection, PATH)
                reference = nginx_module.Nginx(work / f"nginx-{number}", {PATH: body}, workers="1").start()
                try:
                    for _ in range(arguments.rounds):
                        ours = load.run(client, daemon.socket, PATH, 16, arguments.seconds)
                        theirs = load.run(client, reference.socket, PATH, 16, arguments.seconds)
                        print(f"{binary}: {len(body):,} bytes, {ours['rps']:,.0f} req/s; nginx {theirs['rps']:,.0f} req/s; "
                              f"{ours['rps'] / theirs['rps']:.2f}×", flush=True)
                finally:
                    reference.stop()
            finally:
                connection.close()
                daemon.stop()


if __name__ == "__main__":
    main()
