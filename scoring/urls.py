from django.urls import include, path

from scoring import live, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("matches/new/", views.new_match, name="new_match"),
    path("matches/import/", views.import_upload, name="import_match"),
    path("matches/<int:pk>/", views.table, name="table"),
    path("matches/<int:pk>/join/<str:token>/", views.join, name="join"),
    path("matches/<int:pk>/poll/", views.poll, name="poll"),
    # Served by scoring.live's Router under the ASGI server; this view only where it is not.
    path("matches/<int:pk>/live/", live.unavailable, name="live"),
    path("matches/<int:pk>/act/", views.act, name="act"),
    path("matches/<int:pk>/keep/", views.keep_round, name="keep_round"),
    path("matches/<int:pk>/seat/", views.take_seat, name="seat"),
    path("matches/<int:pk>/faces/", views.choose_faces, name="faces"),
    path("matches/<int:pk>/links/", views.new_links, name="new_links"),
    path("matches/<int:pk>/again/", views.play_again, name="play_again"),
    path("matches/<int:pk>/summary/", views.summary, name="summary"),
    path("matches/<int:pk>/export.json", views.export_download, name="export_match"),
    path("matches/<int:pk>/scores.csv", views.scores_csv, name="scores_csv"),
    path("matches/<int:pk>/chart/", views.chart, name="chart"),
    path("matches/<int:pk>/rounds/<int:number>/", views.replay_round, name="replay"),
    path("matches/<int:pk>/rounds/<int:number>/fix/<int:seq>/", views.fix, name="fix"),
    path(
        "matches/<int:pk>/rounds/<int:number>/fix/<int:seq>/<str:change>/",
        views.fix,
        name="fix_change",
    ),
    path("matches/<int:pk>/fix/", views.fix_confirm, name="fix_confirm"),
    path("matches/<int:pk>/ask/", views.ask_about_match, name="ask_about_match"),
    path("rules/", views.rules_index, name="rules"),
    path("rules/<slug:game>/", views.rules_game, name="rules_game"),
    path("referee/", views.desk, name="desk"),
    path("referee/<str:key>/", views.position, name="position"),
    path("players/", views.players, name="players"),
    path("players/<int:pk>/", views.player, name="player"),
    path("events/", include("scoring.events.urls")),  # club nights (issue 32)
]
