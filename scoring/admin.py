from django.contrib import admin

from scoring.models import Action, Match, Player, Round, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "winner", "version", "updated_at"]
    list_filter = ["game", "status"]
    inlines = [SeatInline]
    # All of these follow from the log; edited by hand they would contradict it (and the
    # replays the app keeps by version). verify_matches checks them.
    readonly_fields = ["game", "options", "status", "version", "totals", "winner"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "result"]
    readonly_fields = ["match", "number", "leader", "result"]


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    # The log is append-only: the admin may read it, never rewrite history.
    list_display = ["round", "seq", "kind", "payload", "points", "created_at"]
    readonly_fields = ["round", "seq", "kind", "payload", "points", "idempotency_key"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
