"""Routes of the device pages: the link on a table card, and the director's new PINs."""

from django.urls import path

from tournaments.views import device

urlpatterns = [
    path("<str:key>/", device.device_page, name="device"),
    path("pins/<slug:slug>/<int:number>/", device.renew_pins, name="device_pins"),
]
