"""Routes of the API (result): results and their keyings, the live check, rulings.

Names start with ``api-`` so that errors around them are answered as JSON (tournaments.middleware).
"""

from django.urls import path

from api.v1 import results

BOARD = "events/<slug:slug>/rounds/<int:n>/tables/<int:t>/boards/<int:b>"

urlpatterns = [
    path("events/<slug:slug>/results/", results.ResultList.as_view(), name="api-v1-results"),
    path(f"{BOARD}/result/", results.ResultDetail.as_view(), name="api-v1-result"),
    path(f"{BOARD}/history/", results.ResultHistory.as_view(), name="api-v1-result-history"),
    path(f"{BOARD}/keep/", results.KeepKeying.as_view(), name="api-v1-result-keep"),
    path(f"{BOARD}/sheet/accept/", results.AcceptSheet.as_view(), name="api-v1-sheet-accept"),
    path(
        "events/<slug:slug>/sheet-differences/",
        results.SheetDifferences.as_view(),
        name="api-v1-sheet-differences",
    ),
    path("events/<slug:slug>/check/", results.CheckLine.as_view(), name="api-v1-check"),
    path(
        "events/<slug:slug>/adjustments/", results.Adjustments.as_view(), name="api-v1-adjustments"
    ),
    path("events/<slug:slug>/penalties/", results.Penalties.as_view(), name="api-v1-penalties"),
    path(
        "events/<slug:slug>/penalties/<int:pk>/cancel/",
        results.PenaltyCancel.as_view(),
        name="api-v1-penalty-cancel",
    ),
]
