"""/api/v1/: each part of the API keeps its own routes."""

from django.urls import include, path

urlpatterns = [
    path("", include("api.v1.read_urls")),
    path("", include("api.v1.result_urls")),
    path("", include("api.v1.device_urls")),
    path("", include("api.v1.token_urls")),
]
