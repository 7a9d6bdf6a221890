"""The ratings' pages: the clubs and federations rated, a ranking, a player's rating."""

from django.urls import path

from ratings import views

urlpatterns = [
    path("ratings/", views.index, name="ratings_index"),
    path("ratings/<int:organisation>/", views.ranking, name="ratings"),
    path(
        "ratings/<int:organisation>/players/<int:player>/",
        views.player,
        name="rating_player",
    ),
]
