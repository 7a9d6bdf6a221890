from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from tournaments.throttle import ThrottledAdminAuthenticationForm, ThrottledAuthenticationForm
from tournaments.views import public as public_views
from tournaments.views import site as views_site

# The admin's sign-in says why a locked account cannot sign in, as the site's own does.
admin.site.login_form = ThrottledAdminAuthenticationForm
admin.site.site_header = _("Troef administration")
admin.site.site_title = _("Troef administration")

urlpatterns = [
    path("", views_site.home, name="home"),
    path("healthz", views_site.healthz, name="healthz"),
    path("help/notation/", views_site.notation_help, name="notation_help"),
    path("events/", include("tournaments.urls")),
    path("events/", include("documents.urls")),
    path("api/v1/", include("api.v1.urls")),
    path("api/", include("api.urls")),
    # Table devices: the link on the table card, its PIN, and the table's page on a phone.
    path("t/", include("tournaments.device_urls")),
    # Accounts: API tokens, club and federation accounts; an event's assistants.
    path("", include("tournaments.access_urls")),
    path("scoring-tables/", include("tournaments.scoring_table_urls")),
    path("series/<slug:slug>/", public_views.series_standings, name="series"),
    path("", include("ratings.urls")),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=ThrottledAuthenticationForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
