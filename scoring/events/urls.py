from django.urls import path

from scoring import live
from scoring.events import views

urlpatterns = [
    path("new/", views.new_event, name="new_event"),
    path("<int:pk>/", views.event_page, name="event"),
    path("<int:pk>/join/<str:token>/", views.join, name="event_join"),
    path("<int:pk>/poll/", views.poll, name="event_poll"),
    # Served by scoring.live's Router under the ASGI server; this view only where it is not.
    path("<int:pk>/live/", live.unavailable, name="event_live"),
    path("<int:pk>/entrants/", views.add_entrants, name="event_entrants"),
    path("<int:pk>/withdraw/", views.withdraw, name="event_withdraw"),
    path("<int:pk>/seat/", views.seat, name="event_seat"),
    path("<int:pk>/swap/", views.swap, name="event_swap"),
    path("<int:pk>/start/", views.start, name="event_start"),
    path("<int:pk>/time/", views.call_time, name="event_time"),
    path("<int:pk>/close/", views.close, name="event_close"),
    path("<int:pk>/cards/", views.cards, name="event_cards"),
    path("<int:pk>/tv/", views.tv, name="event_tv"),
    path("<int:pk>/series/", views.series, name="event_series"),
    path("<int:pk>/export.json", views.export, name="export_event"),
]
