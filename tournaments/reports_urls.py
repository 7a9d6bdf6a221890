"""Addresses of the reports pages, included under ``events/``."""

from django.urls import path

from tournaments.views import reports

urlpatterns = [
    path("<slug:slug>/reports/", reports.report_list, name="reports"),
    path("<slug:slug>/reports/<int:pk>/", reports.report_detail, name="report"),
    path("<slug:slug>/reports/<int:pk>/download/", reports.report_download, name="report_download"),
    path("<slug:slug>/reports/<int:pk>/status.json", reports.report_status, name="report_status"),
    path(
        "<slug:slug>/reports/<int:pk>/regenerate/",
        reports.report_regenerate,
        name="report_regenerate",
    ),
]
