"""Troef's settings: one module, configured from the environment (12-factor).

Every setting a deployment changes comes from an environment variable with a safe default for a
laptop in a club hall: SQLite under ``var/``, Celery tasks run eagerly in-process, a generated
secret key kept under ``var/``.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

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
VAR_DIR = Path(os.environ.get("TROEF_VAR_DIR", _HOME / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def database_from_url(url: str) -> dict[str, object]:
    """A DATABASES entry from ``postgres://user:pass@host:port/name`` or ``sqlite:///path``."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        path = unquote(parsed.path)
        # sqlite:///relative/path and sqlite:////absolute/path, as dj-database-url reads them
        name = path[1:] if path.startswith("/") else path
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name or ":memory:"}
    if parsed.scheme in ("postgres", "postgresql", "pgsql"):
        options = {key: values[-1] for key, values in parse_qs(parsed.query).items()}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parsed.path.lstrip("/")),
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": parsed.hostname or "",
            "PORT": str(parsed.port or ""),
            "OPTIONS": options,
            "CONN_MAX_AGE": int(os.environ.get("CONN_MAX_AGE", "60")),
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {parsed.scheme!r} is not supported; use postgres:// or sqlite:///"
    )


def secret_key(debug: bool) -> str:
    key = os.environ.get("SECRET_KEY")
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


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = secret_key(DEBUG)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

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

DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'troef.sqlite3'}"
DATABASES = {"default": database_from_url(DATABASE_URL)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds short-lived shared state, such as the sign-in throttle's counts, so on a server it
# must be one that every web process shares: Redis (another database number than the broker's).
# Without CACHE_URL each process keeps its own memory cache, which is right for `make run`.
CACHE_URL = os.environ.get("CACHE_URL", "")
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
    "ACCOUNT_FAILURES": int(os.environ.get("SIGNIN_ACCOUNT_FAILURES", "5")),
    "ADDRESS_FAILURES": int(os.environ.get("SIGNIN_ADDRESS_FAILURES", "20")),
    "WINDOW_SECONDS": int(os.environ.get("SIGNIN_WINDOW_MINUTES", "15")) * 60,
}
# Table devices (tournaments/services/devices.py): wrong PINs counted per table and address, and
# per address; at the limit, PINs from there are refused until the window ends.
DEVICE_PIN_THROTTLE = {
    "TABLE_FAILURES": int(os.environ.get("DEVICE_PIN_TABLE_FAILURES", "5")),
    # Every phone of a hall may share one address (the club's Wi-Fi): room for honest typos.
    "ADDRESS_FAILURES": int(os.environ.get("DEVICE_PIN_ADDRESS_FAILURES", "60")),
    "WINDOW_SECONDS": int(os.environ.get("DEVICE_PIN_WINDOW_MINUTES", "10")) * 60,
}
# The site's address as players' phones reach it: the table cards print each table's device link
# (and its QR code) under it.
TROEF_SITE_URL = os.environ.get("TROEF_SITE_URL", "http://127.0.0.1:8000")
# The request header in which the proxy in front (nginx) passes the client's address; empty means
# the address the request comes from (REMOTE_ADDR), right when nothing stands in front.
CLIENT_ADDRESS_HEADER = os.environ.get("CLIENT_ADDRESS_HEADER", "")

LANGUAGE_CODE = os.environ.get("LANGUAGE_CODE", "nl")
LANGUAGES = [("nl", _("Dutch")), ("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [LOCALE_DIR]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Brussels")
USE_I18N = True
USE_TZ = True
# One date format per language (config/formats/<language>/formats.py); numbers keep Django's own
# formats for the language, so a decimal comma in Dutch and French.
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "static"))
STATICFILES_DIRS = [STATIC_DIR]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Celery: no broker means tasks run eagerly, in-process, which is what a laptop install wants.
# Celery still opens a producer for eager tasks, so it gets the in-memory transport rather than a
# default network address. Code that asks "is there a broker?" reads CELERY_TASK_ALWAYS_EAGER.
_BROKER = os.environ.get("CELERY_BROKER_URL", "")
CELERY_BROKER_URL = _BROKER or "memory://localhost/"
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", _BROKER) or None
CELERY_TASK_ALWAYS_EAGER = not _BROKER
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
TROEF_CATCH_UP_SECONDS = float(os.environ.get("TROEF_CATCH_UP_SECONDS") or 15)
TROEF_STALLED_SECONDS = float(os.environ.get("TROEF_STALLED_SECONDS") or 45)
CELERY_BEAT_SCHEDULE = {
    "catch-up": {
        "task": "troef.catch_up_standings",
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
        "ReportStatusEnum": "tournaments.models.ReportFile.Status",
        "ReportKindEnum": "tournaments.models.ReportFile.Kind",
        "SeatingSeatEnum": "tournaments.models.Seating.Seat",
        "SeatEnum": ["N", "E", "S", "W"],
        "LanguageEnum": "config.settings.LANGUAGES",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # One line per task is noise when tasks run in-process (no broker configured).
    "loggers": {"celery.app.trace": {"level": "INFO" if _BROKER else "WARNING"}},
}

# HTTPS settings, all on when DEBUG is off. SECURE_COOKIES=false (a site on plain HTTP in a closed
# network) turns the redirect and HSTS off with the cookies; each has its own variable as well.
# `make run` (DEBUG on, plain HTTP on 127.0.0.1) keeps Django's defaults, which already send
# X-Content-Type-Options, Referrer-Policy: same-origin and X-Frame-Options: DENY everywhere.
if not DEBUG:
    _HTTPS = env_bool("SECURE_COOKIES", True)
    SESSION_COOKIE_SECURE = _HTTPS
    CSRF_COOKIE_SECURE = _HTTPS
    # nginx sets X-Forwarded-Proto itself (deploy/nginx.conf), so a client cannot forge it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _HTTPS)
    # The compose health check asks gunicorn directly, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS") or (31536000 if _HTTPS else 0))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
