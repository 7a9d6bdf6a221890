"""The documents in Django's admin: shown, never changed there (the reports page makes them)."""

from django.contrib import admin

from documents.models import ReportFile
from tournaments.admin import ReadOnly


@admin.register(ReportFile)
class ReportFileAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["event", "kind", "status", "created_at"]
    list_filter = ["event"]
