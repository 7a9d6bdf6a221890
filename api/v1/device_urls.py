"""Routes of the API (table devices): the phone at a table, and the director's links and PINs."""

from django.urls import path

from api.v1 import device

urlpatterns = [
    path("device/<str:key>/", device.DeviceTableView.as_view(), name="v1_device"),
    path("device/<str:key>/session/", device.DeviceSessionView.as_view(), name="v1_device_session"),
    path("device/<str:key>/check/", device.DeviceCheckView.as_view(), name="v1_device_check"),
    path("device/<str:key>/results/", device.DeviceResultView.as_view(), name="v1_device_results"),
    path(
        "device/<str:key>/boards/<int:board>/confirm/",
        device.DeviceConfirmView.as_view(),
        name="v1_device_confirm",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/devices/",
        device.RoundDevicesView.as_view(),
        name="v1_round_devices",
    ),
]
