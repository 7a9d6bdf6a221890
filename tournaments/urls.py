from django.urls import path

from tournaments.views import adjust, boards, deal_files, entry, events, players, public, seats

urlpatterns = [
    path("new/", events.event_create, name="event_create"),
    path("<slug:slug>/", events.event_detail, name="event"),
    path("<slug:slug>/edit/", events.event_edit, name="event_edit"),
    path("<slug:slug>/finish/", events.event_finish, name="event_finish"),
    path("<slug:slug>/players/", players.player_list, name="players"),
    path(
        "<slug:slug>/players/<int:number>/withdraw/",
        players.player_withdraw,
        name="player_withdraw",
    ),
    path("<slug:slug>/players/<int:number>/edit/", players.player_edit, name="player_edit"),
    path(
        "<slug:slug>/players/<int:number>/reinstate/",
        players.player_reinstate,
        name="player_reinstate",
    ),
    path("<slug:slug>/players/<int:number>/remove/", players.player_remove, name="player_remove"),
    path("<slug:slug>/movement/", events.movement, name="movement"),
    path("<slug:slug>/movement/replan/", seats.replan, name="replan"),
    path("<slug:slug>/seats/", seats.current_round_seats, name="event_seats"),
    # Before round_action, which would take "seats" for an action.
    path("<slug:slug>/rounds/<int:number>/seats/", seats.round_seats, name="round_seats"),
    path("<slug:slug>/deals/", events.deal_list, name="deals"),
    path("<slug:slug>/deals/import/", deal_files.deals_import, name="deals_import"),
    path("<slug:slug>/log/", events.audit_log, name="audit_log"),
    # Before round_action, which would take "entry" for an action.
    path("<slug:slug>/rounds/<int:number>/entry/", entry.round_entry, name="round_entry"),
    path(
        "<slug:slug>/rounds/<int:number>/<str:action>/",
        events.round_action,
        name="round_action",
    ),
    path("<slug:slug>/rounds/<int:number>/", entry.round_overview, name="round_overview"),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/",
        entry.table_entry,
        name="table_entry",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/boards/<int:board_number>/",
        entry.board_history,
        name="board_history",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/boards/<int:board_number>/sheet/",
        entry.accept_sheet,
        name="accept_sheet",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/boards/<int:board_number>/keep/",
        entry.keep_keying,
        name="keep_keying",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/artificial/",
        entry.table_artificial,
        name="table_artificial",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/boards/<int:board_number>/ruling/",
        adjust.board_ruling,
        name="board_ruling",
    ),
    path("<slug:slug>/players/<int:number>/fine/", adjust.player_fine, name="player_fine"),
    path("<slug:slug>/penalties/", adjust.adjustment_list, name="adjustments"),
    path(
        "<slug:slug>/penalties/<int:pk>/cancel/",
        adjust.penalty_cancel,
        name="penalty_cancel",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/byes/<int:entry_number>/",
        adjust.bye_score,
        name="bye_score",
    ),
    path("<slug:slug>/standings/", public.standings, name="standings"),
    # Public, like the standings: /players/<number>/ is the directors' side.
    path("<slug:slug>/standings/<int:number>/", public.player_results, name="player_results"),
    path("<slug:slug>/standings.csv", public.standings_csv, name="standings_csv"),
    path("<slug:slug>/standings.json", public.standings_json, name="standings_json"),
    path("<slug:slug>/clubs/", public.club_ranking, name="club_ranking"),
    # Public, like the standings: a board's results once every table has played it.
    path("<slug:slug>/boards/<int:board_number>/", boards.board_results, name="board_results"),
    path("<slug:slug>/double-dummy/", boards.double_dummy, name="double_dummy"),
]
