from django.urls import path

from scoring import views

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/new/", views.new_match, name="new_match"),
    path("matches/import/", views.import_upload, name="import_match"),
    path("matches/<int:pk>/", views.table, name="table"),
    path("matches/<int:pk>/act/", views.act, name="act"),
    path("matches/<int:pk>/summary/", views.summary, name="summary"),
    path("matches/<int:pk>/export.json", views.export_download, name="export_match"),
]
