"""gunicorn settings for Troef: ``gunicorn -c deploy/gunicorn.conf.py config.wsgi``.

The same file serves the compose stack and the systemd unit; what differs between them comes from
the environment:

- ``GUNICORN_BIND``: address to listen on (default ``127.0.0.1:8000``, behind nginx on the same
  host; the container image sets ``0.0.0.0:8000``).
- ``GUNICORN_WORKERS``: worker processes (default 4 per CPU plus 1, at most 17).
- ``GUNICORN_THREADS``: threads per worker process (default 1).
- ``GUNICORN_TIMEOUT``: seconds a request may take before its worker is restarted (default 60).
- ``LOG_LEVEL``: the same variable the Django settings read (default ``INFO``).
"""

import os


def default_workers() -> int:
    # sched_getaffinity counts the CPUs this process may use (a container's cpuset), not the host's.
    # Rendering and standings run in the Celery worker, so web requests are short and mostly spent
    # in Python: processes rather than threads serve them side by side (bench/table_devices.py).
    # More than 17 only costs memory and database connections.
    return min(4 * len(os.sched_getaffinity(0)) + 1, 17)


bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS") or default_workers())
# gthread keeps a phone's connection open between its polls instead of closing it after each
# answer. One thread a process by default: a request is mostly Python, and threads of one process
# take turns with Python's lock. Measured with 200 table devices and 500 standings readers on two
# processors, 9 processes of 1 thread answered device saves at p99 0.10-0.14 s and standings at
# 0.06 s; 5 processes of 4 threads, 0.26-0.36 s and 0.09-0.11 s.
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS") or 1)
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 60)
graceful_timeout = 30
keepalive = 5

# The application is loaded once, before the workers are forked: a worker that starts (or is
# recycled) answers at once instead of importing Django while its requests wait. Code changes need a
# restart of the service, not a reload.
preload_app = True

# Recycle workers now and then so a slow memory leak cannot grow without bound; the jitter keeps
# them from all restarting at once. A busy evening serves a hundred requests a second.
max_requests = 20000
max_requests_jitter = 2000

# The workers' heartbeat files live in memory: a container's overlay disk can stall them long enough
# for gunicorn to think a healthy worker has hung.
worker_tmp_dir = "/dev/shm"

# Logs go to stdout/stderr, for the journal or `docker compose logs`. nginx is the peer gunicorn sees,
# so the access log shows the client's address from X-Forwarded-For, and the time taken in ms.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "INFO").lower()
access_log_format = '%({x-forwarded-for}i)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s"'

proc_name = "troef-web"

# systemd or compose manage the processes. Newer gunicorn releases would otherwise open a control
# socket under $HOME, which the service user cannot write to in the container image.
control_socket_disable = True
