"""The first API: its reads answer with their API v1 address (301); see ``api.views``."""

from django.urls import path

from api import views

V1 = "/api/v1/"

urlpatterns = [
    path("events/", views.Moved.as_view(target=V1 + "events/"), name="api-events"),
    path(
        "events/<slug:slug>/",
        views.Moved.as_view(target=V1 + "events/{slug}/"),
        name="api-event",
    ),
    path("events/<slug:slug>/movement/", views.Movement.as_view(), name="api-movement"),
    path(
        "events/<slug:slug>/boards/",
        views.Moved.as_view(target=V1 + "events/{slug}/boards/"),
        name="api-boards",
    ),
    path("events/<slug:slug>/results/", views.ResultList.as_view(), name="api-results"),
    path(
        "events/<slug:slug>/standings/",
        views.Moved.as_view(target=V1 + "events/{slug}/standings/"),
        name="api-standings",
    ),
    path("schema/", views.Moved.as_view(target=V1 + "schema/"), name="api-schema"),
]
