"""gunicorn settings for Troef: ``gunicorn -c deploy/gunicorn.conf.py config.wsgi``.

The same file serves the compose stack and the systemd unit; what differs between them comes from
the environment:

- ``GUNICORN_BIND``: address to listen on (default ``127.0.0.1:8000``, behind nginx on the same
  host; the container image sets ``0.0.0.0:8000``).
- ``GUNICORN_WORKERS``: worker processes (default 2 per CPU plus 1, at most 9).
- ``GUNICORN_TIMEOUT``: seconds a request may take before its worker is restarted (default 60).
- ``LOG_LEVEL``: the same variable the Django settings read (default ``INFO``).
"""

import os


def default_workers() -> int:
    # sched_getaffinity counts the CPUs this process may use (a container's cpuset), not the host's.
    # Rendering and standings run in the Celery worker, so web requests are short: more than 9
    # synchronous workers only costs memory.
    return min(2 * len(os.sched_getaffinity(0)) + 1, 9)


bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS") or default_workers())
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 60)
graceful_timeout = 30
keepalive = 5

# Recycle workers now and then so a slow memory leak cannot grow without bound; the jitter keeps
# them from all restarting at once.
max_requests = 1000
max_requests_jitter = 100

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
