"""Routes of the access pages: an event's directors and assistants, a user's API tokens."""

from django.urls import path

from tournaments.views import access

urlpatterns = [
    path("events/<slug:slug>/access/", access.event_access, name="event_access"),
    path(
        "events/<slug:slug>/access/<str:role>/<int:user_id>/remove/",
        access.event_access_remove,
        name="event_access_remove",
    ),
    path("account/tokens/", access.account_tokens, name="account_tokens"),
    path(
        "account/tokens/<int:pk>/revoke/", access.account_token_revoke, name="account_token_revoke"
    ),
]
