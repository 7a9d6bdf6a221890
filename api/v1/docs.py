"""The API's documentation pages, served by the application with the site's policy intact.

drf-spectacular's own Swagger page runs an inline script and its ReDoc page loads fonts from a CDN;
these use the split view (the start-up script is a file of its own, ``?script``) and templates with
no inline script or style and no outside address. ReDoc's bundle shows a logo from its makers' CDN:
``RedocScript`` serves the bundle without it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.request import Request
from rest_framework.response import Response

REDOC_BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"


class DocsView(SpectacularSwaggerSplitView):
    template_name = "api/swagger_ui.html"


class RedocView(SpectacularRedocView):
    template_name = "api/redoc.html"

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response: Response = super().get(request, *args, **kwargs)  # type: ignore[no-untyped-call]  # drf-spectacular is untyped here
        assert isinstance(response.data, dict)
        response.data["redoc_standalone"] = reverse("api-v1-redoc-script")
        return response


@lru_cache(maxsize=1)
def _redoc_bundle() -> bytes:
    path = finders.find(REDOC_BUNDLE)
    assert isinstance(path, str), "drf-spectacular-sidecar is installed"
    with open(path, "rb") as bundle:
        # An empty address fails at once, and ReDoc then leaves the logo out.
        return bundle.read().replace(REDOC_LOGO, b"")


@require_GET
def redoc_script(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_redoc_bundle(), content_type="application/javascript")
    response["Cache-Control"] = "public, max-age=86400"
    return response
