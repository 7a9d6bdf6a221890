"""Troef's settings: one module, configured from the environment (12-factor).

Every setting a deployment changes comes from an environment variable, read through django-environ,
with a safe default for a laptop in a club hall: SQLite under ``var/``, Celery tasks run eagerly
in-process, a generated secret key kept under ``var/``. deploy/troef.env.example and docs/deploy.md
describe the variables.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote, urlparse

import environ  # type: ignore[import-untyped]  # django-environ ships no type information
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _


class Environment(environ.Env):  # type: ignore[misc]  # the library has no types to check against
    """django-environ's reader, held to the site's own rules for its variables.

    A boolean is one of the words below and anything else is refused by name (the library would
    read "maybe" as false); a number that does not read as one is refused by name; an empty
    variable counts as unset, except for text; a list's items are stripped, empty ones dropped;
    and a value is taken as written, because the library's ``$OTHER_VARIABLE`` references would
    turn a secret key or password that starts with "$" into another variable's value.
    """

    BOOLEAN_TRUE_STRINGS = ("1", "true", "yes", "on")
    BOOLEAN_FALSE_STRINGS = ("0", "false", "no", "off")
    NUMBERS: ClassVar[dict[type, str]] = {int: "a whole number", float: "a number"}

    def __init__(self) -> None:
        super().__init__()
        # django-environ 0.14 has no switch for the references: every "$" is escaped here, and
        # escape_proxy turns each "\$" back into "$" once the reference check has passed it by.
        self.ENVIRON = {name: value.replace("$", r"\$") for name, value in os.environ.items()}
        self.escape_proxy = True

    def get_value(
        self,
        var: str,
        cast: Any = None,
        default: Any = environ.Env.NOTSET,
        parse_default: bool = False,
    ) -> Any:
        if cast not in (None, str) and os.environ.get(var) == "" and default is not self.NOTSET:
            return default
        # The library's float drops every character but digits, signs and separators ("15s" would
        # be 15.0); Python's float refuses what is not a number.
        parse = (lambda value: float(value)) if cast is float else cast
        try:
            return super().get_value(var, parse, default, parse_default)
        except ValueError as error:
            kind = self.NUMBERS.get(cast, "readable") if isinstance(cast, type) else "readable"
            raise ImproperlyConfigured(
                f"{var} must be {kind}, not {os.environ.get(var)!r}"
            ) from error

    def bool(self, var: str, default: Any = environ.Env.NOTSET) -> Any:
        value = os.environ.get(var, "")
        if value and value.lower() not in self.BOOLEAN_TRUE_STRINGS + self.BOOLEAN_FALSE_STRINGS:
            raise ImproperlyConfigured(f"{var} must be true or false, not {value!r}")
        return super().bool(var, default)

    def list(self, var: str, default: Any = environ.Env.NOTSET) -> Any:
        return [item for item in super().list(var, str.strip, default) if item]


env = Environment()

CONFIG_DIR = Path(__file__).resolve().parent
BASE_DIR = CONFIG_DIR.parent


def site_files(name: str) -> Path:
    """The site's ``templates``, ``static`` or ``locale`` directory.

    In the source tree they sit beside ``config/``; the built package carries them inside
    ``config/`` (pyproject.toml maps them there), so an installed site needs no source tree.
    """
    packaged = CONFIG_DIR / name
    return packaged if packaged.is_dir() else BASE_DIR / name


TEMPLATES_DIR = site_files("templates")
STATIC_DIR = site_files("static")
LOCALE_DIR = site_files("locale")
# Run-time files (SQLite database, secret key, documents) under var/: the checkout's own, or the
# working directory's for an installed site, unless TROEF_VAR_DIR says where.
_HOME = BASE_DIR if (BASE_DIR / "manage.py").is_file() else Path.cwd()
VAR_DIR = Path(env.str("TROEF_VAR_DIR", default=str(_HOME / "var")))


def database(url: str) -> dict[str, Any]:
    """A DATABASES entry from ``postgres://user:pass@host:port/name`` or ``sqlite:///path``."""
    scheme = urlparse(url).scheme
    # The engines the site is built and tested for; the library knows many more.
    if scheme not in ("sqlite", "postgres", "postgresql", "pgsql"):
        raise ImproperlyConfigured(
            f"DATABASE_URL scheme {scheme!r} is not supported; use postgres:// or sqlite:///"
        )
    # sqlite:///relative/path and sqlite:////absolute/path; a query's keys become OPTIONS, except
    # Django's own (conn_max_age...), which the library sets on the entry itself.
    entry: dict[str, Any] = env.db_url_config(url)
    if scheme != "sqlite":
        entry.setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
        entry.setdefault("CONN_HEALTH_CHECKS", True)
    return entry


def secret_key(debug: bool) -> str:
    key: str = env.str("SECRET_KEY", default="")
    if key:
        return key
    if not debug:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    # A local installation keeps its generated key so sessions survive a restart.
    path = VAR_DIR / "secret_key"
    if path.exists():
        return path.read_text().strip()
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    path.write_text(key)
    path.chmod(0o600)
    return key


DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = secret_key(DEBUG)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    # Swagger UI and ReDoc's files, served as the site's own static files (no CDN).
    "drf_spectacular_sidecar",
    "tournaments",
    "documents",
    "api",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournaments.middleware.JsonErrorsMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [TEMPLATES_DIR],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# The path is quoted: the URL is read back with "+" as a space and "%" as an escape.
DATABASE_URL = (
    env.str("DATABASE_URL", default="") or f"sqlite:///{quote(str(VAR_DIR))}/troef.sqlite3"
)
DATABASES = {"default": database(DATABASE_URL)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds short-lived shared state, such as the sign-in throttle's counts, so on a server it
# must be one that every web process shares: Redis (another database number than the broker's).
# Without CACHE_URL each process keeps its own memory cache, which is right for `make run`.
CACHE_URL = env.str("CACHE_URL", default="")
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            # A stopped Redis must cost a second at most, never a hanging request.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
elif CACHE_URL:
    raise ImproperlyConfigured(f"CACHE_URL must be a redis:// URL, not {CACHE_URL!r}")
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's own backend behind the sign-in throttle (tournaments/throttle.py): every password check,
# the sign-in page, the admin's and the API's HTTP Basic, counts failures per account and address.
AUTHENTICATION_BACKENDS = ["tournaments.throttle.ThrottledModelBackend"]
SIGNIN_THROTTLE = {
    "ACCOUNT_FAILURES": env.int("SIGNIN_ACCOUNT_FAILURES", default=5),
    "ADDRESS_FAILURES": env.int("SIGNIN_ADDRESS_FAILURES", default=20),
    "WINDOW_SECONDS": env.int("SIGNIN_WINDOW_MINUTES", default=15) * 60,
}
# Table devices (tournaments/services/devices.py): wrong PINs counted per table and address, and
# per address; at the limit, PINs from there are refused until the window ends.
DEVICE_PIN_THROTTLE = {
    "TABLE_FAILURES": env.int("DEVICE_PIN_TABLE_FAILURES", default=5),
    # Every phone of a hall may share one address (the club's Wi-Fi): room for honest typos.
    "ADDRESS_FAILURES": env.int("DEVICE_PIN_ADDRESS_FAILURES", default=60),
    "WINDOW_SECONDS": env.int("DEVICE_PIN_WINDOW_MINUTES", default=10) * 60,
}
# The site's address as players' phones reach it: the table cards print each table's device link
# (and its QR code) under it.
TROEF_SITE_URL = env.str("TROEF_SITE_URL", default="http://127.0.0.1:8000")
# The request header in which the proxy in front (nginx) passes the client's address; empty means
# the address the request comes from (REMOTE_ADDR), right when nothing stands in front.
CLIENT_ADDRESS_HEADER = env.str("CLIENT_ADDRESS_HEADER", default="")

LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="nl")
LANGUAGES = [("nl", _("Dutch")), ("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [LOCALE_DIR]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Brussels")
USE_I18N = True
USE_TZ = True
# One date format per language (config/formats/<language>/formats.py); numbers keep Django's own
# formats for the language, so a decimal comma in Dutch and French.
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "static")))
STATICFILES_DIRS = [STATIC_DIR]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Celery: no broker means tasks run eagerly, in-process, which is what a laptop install wants.
# Celery still opens a producer for eager tasks, so it gets the in-memory transport rather than a
# default network address. Code that asks "is there a broker?" reads CELERY_TASK_ALWAYS_EAGER.
_BROKER = env.str("CELERY_BROKER_URL", default="")
CELERY_BROKER_URL = _BROKER or "memory://localhost/"
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=_BROKER) or None
CELERY_TASK_ALWAYS_EAGER = not _BROKER
# The queue jobs are sent to and workers take them from: sites that share one Redis each name
# their own. A worker started by the tests and benchmarks gets a queue of its own this way.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery") or "celery"
# The double-dummy analysis takes minutes a board: its jobs have a queue of their own, taken by a
# worker of its own (deploy/systemd/troef-analysis.service, the compose file's analysis service).
TROEF_ANALYSIS_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.analysis"
CELERY_TASK_ROUTES = {"troef.analyse_board": {"queue": TROEF_ANALYSIS_QUEUE}}
# How many of a board's searches the analysis runs at once: 0 for every processor the worker may
# use. The analysis worker runs at a lower priority, so the standings still come first.
_ANALYSIS_THREADS = env.str("TROEF_ANALYSIS_THREADS", default="0").strip()
if not (_ANALYSIS_THREADS.isascii() and _ANALYSIS_THREADS.isdigit()):
    raise ImproperlyConfigured(
        "TROEF_ANALYSIS_THREADS is a number of threads (0 for every processor), "
        f"not {_ANALYSIS_THREADS!r}"
    )
TROEF_ANALYSIS_THREADS = int(_ANALYSIS_THREADS)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A save never waits on the broker: publishing is tried once, with short timeouts, and a failure
# leaves the work owed in the database (Standings.requested, a queued ReportFile), where the
# catch-up below finds it. Kombu's default retries, and the result store's (about 19 s in all
# with Redis down), would otherwise run inside the request.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_REDIS_SOCKET_TIMEOUT = 5
# The longest document (score sheets of a 100-table round, 200 pages) takes about half a second to
# draw (bench/bench_reports.py) and a few seconds with its queries: the limits leave ample room
# and still end a runaway job. A job that hits the soft limit is stored as failed.
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
# Acknowledged after the work (acks late), given back when the worker process dies, one message
# in hand per worker process; Redis hands an unacknowledged message out again after the
# visibility timeout, which must exceed the hard time limit. A worker killed outright is noticed
# sooner by the catch-up (a report without a heartbeat for a minute is queued again).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 600,
    "socket_connect_timeout": 1,
    "socket_timeout": 5,
    # A publisher's connection is tried twice, without Kombu's default pause of 2 s between.
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.5}
}
# Celery beat runs the catch-up: standings left stale by a broker outage or a lost task, and
# report jobs whose worker died. A job without a sign of life for TROEF_STALLED_SECONDS (a running
# job writes one every 10 s) is stalled; with the catch-up every TROEF_CATCH_UP_SECONDS, a job whose
# worker died is queued again within a minute. ``expires``: a tick that waited for a worker is
# dropped, the next one does the same work.
TROEF_CATCH_UP_SECONDS = env.float("TROEF_CATCH_UP_SECONDS", default=15.0)
# The share of a processor that one event's standings may take while saves keep coming
# (tournaments.services.pacing): after each computation the event rests in proportion.
TROEF_STANDINGS_SHARE = env.float("TROEF_STANDINGS_SHARE", default=0.5)
if not 0 < TROEF_STANDINGS_SHARE <= 1:
    raise ImproperlyConfigured(
        "TROEF_STANDINGS_SHARE must be a share of a processor above 0 and at most 1, "
        f"not {os.environ.get('TROEF_STANDINGS_SHARE')!r}"
    )
TROEF_STALLED_SECONDS = env.float("TROEF_STALLED_SECONDS", default=45.0)
CELERY_BEAT_SCHEDULE = {
    "catch-up": {
        "task": "troef.catch_up_standings",
        "schedule": TROEF_CATCH_UP_SECONDS,
        "options": {"expires": TROEF_CATCH_UP_SECONDS * 0.8},
    },
    "catch-up-ratings": {
        "task": "troef.catch_up_ratings",
        "schedule": TROEF_CATCH_UP_SECONDS,
        "options": {"expires": TROEF_CATCH_UP_SECONDS * 0.8},
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # API clients: "Authorization: Bearer <token>", a token made on the account's page.
        "api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "api.authentication.ThrottledBasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "api.v1.schema.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "api.v1.pagination.PagePagination",
    "EXCEPTION_HANDLER": "api.errors.handle",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Troef API",
    "DESCRIPTION": "Tournaments of Belgian whist: events, results, standings and table devices.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The document is API v1's; the old /api/ paths redirect to it (api.v1.schema).
    "PREPROCESSING_HOOKS": ["api.v1.schema.only_v1"],
    # Choice sets named after what they choose, not "Status437Enum".
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournaments.models.Event.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "ResultStatusEnum": "tournaments.models.Result.Status",
        "ResultKindEnum": "tournaments.models.Result.Kind",
        "ResultSourceEnum": "tournaments.models.Result.Source",
        "ReportStatusEnum": "documents.models.ReportFile.Status",
        "ReportKindEnum": "documents.models.ReportFile.Kind",
        "SeatingSeatEnum": "tournaments.models.Seating.Seat",
        "SeatEnum": ["N", "E", "S", "W"],
        "LanguageEnum": "config.settings.LANGUAGES",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # One line per task is noise when tasks run in-process (no broker configured).
    "loggers": {"celery.app.trace": {"level": "INFO" if _BROKER else "WARNING"}},
}

# HTTPS settings, all on when DEBUG is off. SECURE_COOKIES=false (a site on plain HTTP in a closed
# network) turns the redirect and HSTS off with the cookies; each has its own variable as well.
# `make run` (DEBUG on, plain HTTP on 127.0.0.1) keeps Django's defaults, which already send
# X-Content-Type-Options, Referrer-Policy: same-origin and X-Frame-Options: DENY everywhere.
if not DEBUG:
    _HTTPS = env.bool("SECURE_COOKIES", default=True)
    SESSION_COOKIE_SECURE = _HTTPS
    CSRF_COOKIE_SECURE = _HTTPS
    # nginx sets X-Forwarded-Proto itself (deploy/nginx.conf), so a client cannot forge it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=_HTTPS)
    # The compose health check asks gunicorn directly, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if _HTTPS else 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
