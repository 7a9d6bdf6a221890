from django.urls import path
from rest_framework.schemas import get_schema_view

from api import views

urlpatterns = [
    path("events/", views.EventList.as_view(), name="api-events"),
    path("events/<slug:slug>/", views.EventDetail.as_view(), name="api-event"),
    path("events/<slug:slug>/movement/", views.Movement.as_view(), name="api-movement"),
    path("events/<slug:slug>/boards/", views.BoardList.as_view(), name="api-boards"),
    path("events/<slug:slug>/results/", views.ResultList.as_view(), name="api-results"),
    path("events/<slug:slug>/standings/", views.StandingsView.as_view(), name="api-standings"),
    path(
        "schema/",
        get_schema_view(title="Troef API", description="Tournaments of Belgian whist", version="1"),
        name="api-schema",
    ),
]
