"""The operator's commands (server/commands.py) carried out on a room: one place, the same for the
console of one process and, through the bus, of a cluster (docs/console.md, docs/cluster.md).

:func:`execute` checks a command, does it, stores what the console changed (``store.games``: it wins over
the configuration file, server/console_state.py) and returns an :class:`Outcome`: the answer for the
console and what the audit log records (before and after). A command that cannot be done raises
:class:`CommandRefused` with an HTTP status, a stable code and the details, and changes nothing.
"""

from __future__ import annotations

from typing import Any

from pokerroom.rooms import PointsPolicy, TableConfig, TableError
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.commands import (
    AddRecurring,
    CancelTournament,
    CloseGame,
    Command,
    CommandRefused,
    EditRecurring,
    EditTournament,
    EndTournament,
    HoldTable,
    MessageTable,
    OpenGame,
    Outcome,
    RemoveRecurring,
    ResumeActor,
    ScheduleTournament,
    SetPromotions,
    SetTournamentDeals,
)
from pokerroom.server.config.parse import (
    ConfigInvalid,
    game_from_fields,
    promotions_from_fields,
    recurring_from_fields,
)
from pokerroom.server.errors import Refused
from pokerroom.server.mailbox import ActorStopped
from pokerroom.server.room import Room
from pokerroom.server.schedule import ScheduleError, tournament_from_dict
from pokerroom.server.tournament.recurring import due_occurrences, open_due, series_row, withdraw_open

__all__ = ["execute", "game_row", "game_state", "policy_fields", "tournament_spec"]

_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


# ------------------------------------------------------------------------------------------ views


def game_state(r: Room, gid: str) -> str:
    """A table's or pool's state as the console shows it: playing, paused (by the operator), suspended
    (by repeated errors), closing, store_paused, or closed."""
    actor: Any = r.tables.get(gid) or r.pools.get(gid)
    if actor is None:
        return "closed"
    if actor.closing:
        return "closing"
    if actor.suspended is not None:
        return "suspended"
    if gid in r.console.held:
        return "paused"
    return "store_paused" if actor.pause is not None else "playing"


def game_row(r: Room, gid: str, kind: str) -> dict[str, Any]:
    actor: Any = r.tables.get(gid) or r.pools.get(gid)
    return {
        "id": gid,
        "kind": kind,
        "state": game_state(r, gid),
        "reason": actor.suspended if actor else None,  # why repeated errors suspended it
        "summary": actor.summary() if actor else None,
    }


def _kind(r: Room, gid: str) -> str:
    if gid in r.tables:
        return "table"
    if gid in r.pools:
        return "pool"
    raise CommandRefused(404, "unknown_table", "no such table or pool", table=gid)


def policy_fields(p: PointsPolicy | None) -> dict[str, Any] | None:
    """A policy as the fields of ``[promotions]``, weeks given by their Monday (what the store keeps: a
    week written "this" or "next" would move at the next start)."""
    if p is None:
        return None
    return {
        "timezone": str(p.tz),
        "tournament_points_per_unit": p.tournament_points_per_unit,
        "game_of_the_week": [
            {"week": monday.isoformat(), "game": d.variant, "betting": d.betting.value, "mode": d.mode}
            for monday, d in sorted(p.game_of_the_week.items())
        ],
        "happy_hour": [
            {
                "days": [_DAYS[i] for i in sorted(h.days)],
                "start": h.start.isoformat(timespec="minutes"),
                "end": h.end.isoformat(timespec="minutes"),
                "multiplier": h.multiplier_pct / 100,
            }
            for h in p.happy_hours
        ],
    }


def tournament_spec(body: dict[str, Any], cfg: TournamentConfig, rush: bool) -> dict[str, Any]:
    """The request with its times made absolute: what the store keeps to open it again."""
    spec = {k: v for k, v in body.items() if k not in ("start_in_minutes", "start_time")}
    if cfg.start_time is not None:
        spec["start"] = cfg.start_time.isoformat()
    if cfg.registration_opens is not None:
        spec["registration_opens"] = cfg.registration_opens.isoformat()
    return {**spec, "rush": rush}


async def _keep(r: Room, gid: str, kind: str, state: str) -> None:
    """Store the console's word on ``gid``: its fields if the console opened it, else none (the file's)."""
    known = await r.store.games.get(gid)
    await r.store.games.save(gid, kind, known.spec if known else {}, state)


# ---------------------------------------------------------------------------------------- commands


async def execute(r: Room, cmd: Command) -> Outcome:
    """Carry out ``cmd`` on the room ``r`` (see the module). A table, pool or tournament that stopped
    meanwhile (a move to another host, a restart) refuses it: ``503 room_unavailable``, to try again."""
    try:
        return await _execute(r, cmd)
    except ActorStopped as exc:
        raise CommandRefused(503, exc.code, exc.message) from None


async def _execute(r: Room, cmd: Command) -> Outcome:
    if isinstance(cmd, OpenGame):
        return await _open(r, cmd)
    if isinstance(cmd, HoldTable):
        return await _hold(r, cmd.table, cmd.held)
    if isinstance(cmd, ResumeActor):
        return await _resume(r, cmd)
    if isinstance(cmd, CloseGame):
        return await _close(r, cmd)
    if isinstance(cmd, MessageTable):
        return await _message(r, cmd)
    if isinstance(cmd, ScheduleTournament):
        return await _schedule(r, cmd)
    if isinstance(cmd, EditTournament):
        return await _edit(r, cmd)
    if isinstance(cmd, CancelTournament):
        return await _cancel(r, cmd)
    if isinstance(cmd, EndTournament):
        return await _end(r, cmd)
    if isinstance(cmd, SetTournamentDeals):
        return await _deals(r, cmd)
    if isinstance(cmd, AddRecurring):
        return await _add_recurring(r, cmd)
    if isinstance(cmd, EditRecurring):
        return await _edit_recurring(r, cmd)
    if isinstance(cmd, RemoveRecurring):
        return await _remove_recurring(r, cmd)
    if isinstance(cmd, SetPromotions):
        return await _promotions(r, cmd)
    raise CommandRefused(400, "unknown_command", f"no such command: {type(cmd).__name__}")


async def _open(r: Room, cmd: OpenGame) -> Outcome:
    try:
        cfg = game_from_fields(cmd.kind, cmd.fields)
    except ConfigInvalid as exc:
        problems = [f"{p.path}: {p.message}" for p in exc.problems]
        raise CommandRefused(422, "bad_config", "; ".join(problems), problems=problems) from None
    gid = cfg.table_id if isinstance(cfg, TableConfig) else cfg.pool_id
    try:
        actor = await r.open_game(cfg)
    except ValueError as exc:
        raise CommandRefused(409, "game_exists", str(exc), table=gid) from None
    await r.store.games.save(gid, cmd.kind, cmd.fields, "open")
    # (on a cluster's host it is only in the settings yet: the host that takes its lease opens it)
    row = game_row(r, gid, cmd.kind) if actor else {"id": gid, "kind": cmd.kind, "state": "opening"}
    return Outcome(row, f"{cmd.kind}.open", gid, None, cmd.fields)


async def _hold(r: Room, gid: str, held: bool) -> Outcome:
    if _kind(r, gid) != "table":
        raise CommandRefused(409, "not_a_table", "only a cash table pauses (close a pool instead)", table=gid)
    before = game_state(r, gid)
    try:
        await r.hold_table(gid, held)
    except Refused as exc:
        raise CommandRefused(404, exc.code, exc.message, table=gid) from None
    await _keep(r, gid, "table", "paused" if held else "open")
    after = game_state(r, gid)
    action = f"table.{'pause' if held else 'resume'}"
    return Outcome(game_row(r, gid, "table"), action, gid, {"state": before}, {"state": after})


async def _resume(r: Room, cmd: ResumeActor) -> Outcome:
    """A suspended actor deals again; a cash table the operator paused (and not suspended) is let go."""
    gid = cmd.ident
    if cmd.kind == "tournament":
        t = r.tournaments.get(gid)
        if t is None:
            raise CommandRefused(404, "unknown_tournament", "no such tournament", tournament=gid)
        before = {"state": t.state, "reason": t.suspended}
        if not await r.resume_actor(gid):
            raise CommandRefused(409, "not_suspended", "the tournament is not suspended", tournament=gid)
        return Outcome({"tournament": t.summary()}, "tournament.resume", gid, before, {"state": t.state})
    kind = _kind(r, gid)
    actor: Any = r.tables.get(gid) or r.pools.get(gid)
    if actor.suspended is None:
        return await _hold(r, gid, False)
    before = {"state": game_state(r, gid), "reason": actor.suspended}
    await r.resume_actor(gid)
    if kind == "table" and gid in r.console.held:  # (paused by the operator too: that pause ends as well)
        await r.hold_table(gid, False)
        await _keep(r, gid, "table", "open")
    return Outcome(game_row(r, gid, kind), f"{kind}.resume", gid, before, {"state": game_state(r, gid)})


async def _close(r: Room, cmd: CloseGame) -> Outcome:
    gid = cmd.ident
    kind = _kind(r, gid)
    before = game_state(r, gid)
    await _keep(r, gid, kind, "closed")  # (first: on a cluster, no host may take a closed table's lease)
    await r.close_game(gid)
    answer = {"id": gid, "kind": kind, "state": game_state(r, gid)}
    return Outcome(answer, f"{kind}.close", gid, {"state": before}, {"state": "closed"})


async def _message(r: Room, cmd: MessageTable) -> Outcome:
    if _kind(r, cmd.table) != "table":
        raise CommandRefused(409, "not_a_table", "messages go to cash tables", table=cmd.table)
    await r.message_table(cmd.table, cmd.text)
    return Outcome({"ok": True}, "table.message", cmd.table, None, {"text": cmd.text})


def _tournament_fields(body: dict[str, Any]) -> tuple[TournamentConfig, bool, dict[str, Any]]:
    fields = dict(body)
    rush = fields.pop("rush", False)
    try:
        if not isinstance(rush, bool):
            raise ScheduleError("rush is true or false")
        cfg = tournament_from_dict(fields)
    except (ScheduleError, ValueError) as exc:
        raise CommandRefused(422, "bad_tournament", str(exc)) from None
    return cfg, rush, tournament_spec(fields, cfg, rush)


async def _schedule(r: Room, cmd: ScheduleTournament) -> Outcome:
    cfg, rush, spec = _tournament_fields(cmd.fields)
    tid = cfg.tournament_id
    if tid in r.tournaments or any(t.series == tid for t in r.tournaments.values()):
        raise CommandRefused(422, "bad_tournament", f"tournament {tid!r} exists already")
    if await r.store.tournaments.statuses([tid]):
        raise CommandRefused(422, "bad_tournament", f"tournament {tid!r} exists already")
    try:
        actor = r.schedule_tournament(cfg, rush=rush, spec=spec)
    except ValueError as exc:
        raise CommandRefused(422, "bad_tournament", str(exc)) from None
    await r.store.games.save(tid, "tournament", spec, "open")
    return Outcome({"tournament": actor.summary()}, "tournament.schedule", tid, None, spec)


async def _edit(r: Room, cmd: EditTournament) -> Outcome:
    tid = cmd.tournament
    actor = r.tournaments.get(tid)
    if actor is None:
        raise CommandRefused(404, "unknown_tournament", "no such tournament", tournament=tid)
    old = {"name": actor.director.config.name, "status": actor.director.status}
    cfg, rush, spec = _tournament_fields({**cmd.fields, "id": tid})
    try:
        new = await r.edit_tournament(cfg, rush=rush, spec=spec)
    except Refused as exc:
        raise CommandRefused(409, exc.code, exc.message, tournament=tid) from None
    await r.store.games.save(tid, "tournament", spec, "open")
    return Outcome({"tournament": new.summary()}, "tournament.edit", tid, old, spec)


async def _cancel(r: Room, cmd: CancelTournament) -> Outcome:
    tid = cmd.tournament
    actor = r.tournaments.get(tid)
    if actor is None:
        raise CommandRefused(404, "unknown_tournament", "no such tournament", tournament=tid)
    cfg = actor.director.config
    before = {
        "status": actor.director.status,
        "entrants": sorted(e.name for e in actor.director.entrants.values()),
    }
    refunds = [
        {"name": e.name, "amount": cfg.buy_in + cfg.fee, "to": "ticket" if e.ticket else "wallet"}
        for e in actor.director.entrants.values()
    ]
    try:
        kept = await r.cancel_tournament(tid)
    except Refused as exc:
        raise CommandRefused(409, exc.code, exc.message, tournament=tid) from None
    await r.store.games.save(kept, "tournament", {}, "closed")
    after = {"status": actor.director.status, "refunds": refunds, "currency": cfg.currency}
    answer = {"tournament": actor.summary(), "refunds": refunds}
    return Outcome(answer, "tournament.cancel", tid, before, after)


async def _add_recurring(r: Room, cmd: AddRecurring) -> Outcome:
    """Add a recurring series (the fields of a ``[[recurring]]``, checked as the configuration file's):
    stored (``store.games``, kind ``recurring``) so that a restart keeps it, laid over the settings, and
    its due occurrences opened now; audited as ``recurring.add``."""
    try:
        rec, rush = recurring_from_fields(cmd.fields, now=r.clock.now())
    except ConfigInvalid as exc:
        problems = [f"{p.path}: {p.message}" for p in exc.problems]
        raise CommandRefused(422, "bad_config", "; ".join(problems), problems=problems) from None
    sid = rec.series
    if any(other.series == sid for other, _ in r.settings.recurring):
        raise CommandRefused(422, "bad_config", f"a recurring series {sid!r} exists already", problems=[])
    await r.store.games.save(sid, "recurring", dict(cmd.fields), "open")
    r.console.series[sid] = (rec, rush)
    r.settings = r.console.apply(r.settings)
    opened = await open_due(r, r.settings.recurring, r.clock.now())
    row = series_row(rec, rush, r.clock.now(), "console")
    return Outcome({"series": row, "opened": opened}, "recurring.add", sid, None, dict(cmd.fields))


async def _console_series(r: Room, sid: str) -> dict[str, Any]:
    """The stored fields of a series the console added; ``409 recurring_in_file`` for one of the
    configuration file (edit the file), ``404 unknown_series`` for none."""
    if sid not in r.console.series:
        if any(rec.series == sid for rec, _ in r.settings.recurring):
            raise CommandRefused(
                409,
                "recurring_in_file",
                "this series is in the configuration file: edit it there",
                series=sid,
            )
        raise CommandRefused(404, "unknown_series", "no recurring series has this id", series=sid)
    known = await r.store.games.get(sid)
    return dict(known.spec) if known is not None else {}


def _single_process(r: Room, sid: str) -> None:
    """A series' occurrences are spread over a cluster's hosts, and a command reaches one of them: an
    edit or removal there would settle that host's occurrences alone. Refused on a cluster
    (``409 recurring_on_cluster``, docs/cluster.md): edit the series with the room as one process."""
    if r.hosted:
        raise CommandRefused(
            409,
            "recurring_on_cluster",
            "a series is edited or removed with the room running as one process, not on a cluster",
            series=sid,
        )


async def _edit_recurring(r: Room, cmd: EditRecurring) -> Outcome:
    """Replace a series the console added (checked as ``[[recurring]]``, the same id): stored first (a
    store that fails changes nothing), then its occurrences open and not started are settled
    (``withdraw_open``: kept as announced with registrations or satellite seats, withdrawn without) and
    the edited rule opens what is due; audited as ``recurring.edit``."""
    sid = cmd.series
    before = await _console_series(r, sid)
    _single_process(r, sid)
    fields = dict(cmd.fields)
    if fields.get("id", sid) != sid:
        problem = f"recurring.id: the series is {sid!r} (remove it and add another to change its id)"
        raise CommandRefused(422, "bad_config", problem, problems=[problem])
    fields["id"] = sid
    try:
        rec, rush = recurring_from_fields(fields, now=r.clock.now())
    except ConfigInvalid as exc:
        problems = [f"{p.path}: {p.message}" for p in exc.problems]
        raise CommandRefused(422, "bad_config", "; ".join(problems), problems=problems) from None
    await r.store.games.save(sid, "recurring", fields, "open")
    settled = await withdraw_open(r, sid, r.console.series[sid][1])
    r.console.series[sid] = (rec, rush)
    r.settings = r.console.apply(r.file_settings)
    now = r.clock.now()
    for cfg, is_rush in due_occurrences([(rec, rush)], now):  # (a withdrawn id may have a store row)
        if cfg.tournament_id in settled["withdrawn"] and cfg.tournament_id not in r.tournaments:
            r.add_tournament(cfg, rush=is_rush)
    opened = [t for t in settled["withdrawn"] if t in r.tournaments]
    opened += await open_due(r, r.settings.recurring, now)
    row = series_row(rec, rush, now, "console")
    answer = {"series": row, "opened": opened, **settled}
    return Outcome(answer, "recurring.edit", sid, before, {**fields, **settled})


async def _remove_recurring(r: Room, cmd: RemoveRecurring) -> Outcome:
    """Remove a series the console added: stored first (a store that fails changes nothing), then no
    occurrence of it is announced any more; those open and not started are settled (``withdraw_open``);
    audited as ``recurring.remove``."""
    sid = cmd.series
    before = await _console_series(r, sid)
    _single_process(r, sid)
    await r.store.games.save(sid, "recurring", before, "closed")  # (its fields kept, for the record)
    settled = await withdraw_open(r, sid, r.console.series[sid][1], removed=True)
    del r.console.series[sid]
    r.settings = r.console.apply(r.file_settings)
    return Outcome({"series": sid, **settled}, "recurring.remove", sid, before, {"removed": True, **settled})


async def _deals(r: Room, cmd: SetTournamentDeals) -> Outcome:
    """Allow or forbid deals at a tournament's final table (``TournamentActor.set_deals``); audited as
    ``tournament.deals`` with the setting before and after."""
    tid = cmd.tournament
    actor = r.tournaments.get(tid)
    if actor is None:
        raise CommandRefused(404, "unknown_tournament", "no such tournament", tournament=tid)
    before = {"deals": actor.director.config.deals}
    await actor.call(lambda: actor.set_deals(cmd.allowed))
    after = {"deals": actor.director.config.deals}
    return Outcome({"tournament": actor.summary()}, "tournament.deals", tid, before, after)


async def _end(r: Room, cmd: EndTournament) -> Outcome:
    """End a running tournament: its hands void, its pool paid out by the interrupted-tournament rule
    (``TournamentActor.end``, docs/tournaments.md); the audit entry lists who was paid what."""
    tid = cmd.tournament
    actor = r.tournaments.get(tid)
    if actor is None:
        raise CommandRefused(404, "unknown_tournament", "no such tournament", tournament=tid)
    d = actor.director
    before = {
        "status": d.status,
        "players_left": sorted(e.name for e in d.remaining),
        "pool": d.pool,
    }
    try:
        await actor.call(actor.end)
    except TableError as exc:
        raise CommandRefused(409, "not_running", str(exc), tournament=tid) from None
    paid = [{"name": d.entrants[p].name, "amount": amount} for p, amount in sorted(actor.prizes.items())]
    after = {
        "status": d.status,
        "pool": d.pool,
        "paid": paid,  # prizes, deals and shares (the bounties apart: ``bounties_paid`` in all)
        "bounties_paid": d.bounty_out,
        "currency": d.config.currency,
    }
    return Outcome({"tournament": actor.summary(), "paid": paid}, "tournament.end", tid, before, after)


async def _promotions(r: Room, cmd: SetPromotions) -> Outcome:
    try:
        policy = promotions_from_fields(cmd.fields, now=r.clock.now())
    except ConfigInvalid as exc:
        problems = [f"{p.path}: {p.message}" for p in exc.problems]
        raise CommandRefused(422, "bad_config", "; ".join(problems), problems=problems) from None
    before = policy_fields(r.settings.points)
    after = policy_fields(policy)
    assert after is not None
    r.set_promotions(policy)
    await r.store.games.save("promotions", "promotions", after, "open")
    answer = {"promotions": after, "from_console": True}
    return Outcome(answer, "promotions.replace", "promotions", before, after)
