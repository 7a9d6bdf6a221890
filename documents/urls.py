"""Addresses of the reports pages, included under ``events/``."""

from django.urls import path

from documents import views

urlpatterns = [
    path("<slug:slug>/reports/", views.report_list, name="reports"),
    path("<slug:slug>/reports/<int:pk>/", views.report_detail, name="report"),
    path("<slug:slug>/reports/<int:pk>/download/", views.report_download, name="report_download"),
    path("<slug:slug>/reports/<int:pk>/status.json", views.report_status, name="report_status"),
    path(
        "<slug:slug>/reports/<int:pk>/regenerate/",
        views.report_regenerate,
        name="report_regenerate",
    ),
]
