"""Addresses of the clubs' scoring tables, under /scoring-tables/."""

from django.urls import path

from tournaments.views import scoring_tables

urlpatterns = [
    path("", scoring_tables.table_list, name="scoring_tables"),
    path("new/", scoring_tables.table_create, name="scoring_table_new"),
    path("preview/", scoring_tables.preview_json, name="scoring_table_preview"),
    path("<int:pk>/", scoring_tables.table_edit, name="scoring_table_edit"),
    path("<int:pk>/versions/", scoring_tables.table_history, name="scoring_table_history"),
    path("versions/<int:pk>/export/", scoring_tables.version_export, name="scoring_table_export"),
]
