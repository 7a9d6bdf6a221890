"""Routes of the API (token): the signed-in user's API tokens.

Names start with ``api-`` so that errors around them are answered as JSON (tournaments.middleware).
"""

from django.urls import path

from api.v1 import tokens

urlpatterns = [
    path("tokens/", tokens.TokenList.as_view(), name="api-v1-tokens"),
    path("tokens/<int:pk>/", tokens.TokenDetail.as_view(), name="api-v1-token"),
    path("tokens/<int:pk>/revoke/", tokens.TokenRevoke.as_view(), name="api-v1-token-revoke"),
]
