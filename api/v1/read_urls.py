"""Routes of API v1's read side, the schema and its documentation pages."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from api.v1.docs import DocsView, RedocView, redoc_script
from api.v1.resources import people, play, reports, rulesets, standings

EVENT = "events/<slug:slug>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-v1-schema"),
    path("docs/", DocsView.as_view(url_name="api-v1-schema"), name="api-v1-docs"),
    path("redoc/", RedocView.as_view(url_name="api-v1-schema"), name="api-v1-redoc"),
    path("redoc/redoc.js", redoc_script, name="api-v1-redoc-script"),
    path("events/", people.EventList.as_view(), name="api-v1-events"),
    path(EVENT, people.EventDetail.as_view(), name="api-v1-event"),
    path(EVENT + "entries/", people.EntryList.as_view(), name="api-v1-entries"),
    path(EVENT + "rounds/", play.RoundList.as_view(), name="api-v1-rounds"),
    path(EVENT + "rounds/<int:n>/", play.RoundDetail.as_view(), name="api-v1-round"),
    path(EVENT + "rounds/<int:n>/tables/", play.TableList.as_view(), name="api-v1-tables"),
    path(EVENT + "rounds/<int:n>/tables/<int:t>/", play.TableDetail.as_view(), name="api-v1-table"),
    path(EVENT + "boards/", play.BoardList.as_view(), name="api-v1-boards"),
    path(EVENT + "boards/<int:n>/", play.BoardDetail.as_view(), name="api-v1-board"),
    path(EVENT + "standings/", standings.StandingsView.as_view(), name="api-v1-standings"),
    path(EVENT + "clubs/", standings.ClubRankingView.as_view(), name="api-v1-club-ranking"),
    path(EVENT + "reports/", reports.ReportList.as_view(), name="api-v1-reports"),
    path(EVENT + "reports/<int:id>/", reports.ReportDetail.as_view(), name="api-v1-report"),
    path(
        EVENT + "reports/<int:id>/download/",
        reports.ReportDownload.as_view(),
        name="api-v1-report-download",
    ),
    path("clubs/", people.ClubList.as_view(), name="api-v1-clubs"),
    path("clubs/<int:pk>/", people.ClubDetail.as_view(), name="api-v1-club"),
    path("players/", people.PlayerList.as_view(), name="api-v1-players"),
    path("players/<int:pk>/", people.PlayerDetail.as_view(), name="api-v1-player"),
    path("series/", standings.SeriesList.as_view(), name="api-v1-series-list"),
    path(
        "series/<slug:slug>/standings/",
        standings.SeriesStandingsView.as_view(),
        name="api-v1-series",
    ),
    path("rulesets/", rulesets.RulesetList.as_view(), name="api-v1-rulesets"),
    path("rulesets/validate/", rulesets.RulesetValidate.as_view(), name="api-v1-ruleset-validate"),
    path("rulesets/<str:name>/", rulesets.RulesetDetail.as_view(), name="api-v1-ruleset"),
    path(
        "rulesets/<str:name>/score/", rulesets.RulesetScore.as_view(), name="api-v1-ruleset-score"
    ),
    path("movements/preview/", rulesets.MovementPreview.as_view(), name="api-v1-movement-preview"),
]
