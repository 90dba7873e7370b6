"""Rush tournaments (RULES.md §8.9): fast-fold play with fewer seats per table as the field shrinks,
then one final table in standard mode."""

from __future__ import annotations

from datetime import datetime

from pokerroom.cards import RandomSource
from pokerroom.engine import Command, ConfigError, QuickFoldRefused
from pokerroom.rooms.notices import HandFinished
from pokerroom.rooms.points import PointsPolicy
from pokerroom.rooms.rush import RushPool, entry_key
from pokerroom.rooms.rush_rules import PoolConfig
from pokerroom.rooms.tournament.config import TournamentConfig
from pokerroom.rooms.tournament.director import Output, PlayerMoved, TournamentDirector
from pokerroom.rooms.tournament.structure import level_stakes
from pokerroom.rooms.tournament.table import TournamentTable, TPlayer

__all__ = ["RushTournamentDirector", "check_rush_config", "rush_table_size"]

FINAL_TABLE = 9


def rush_table_size(remaining: int) -> int | None:
    """Seats per Rush table for the players remaining (R214); ``None``: the final table (R215)."""
    if remaining >= 29:
        return 9
    for low, seats in ((22, 8), (19, 7), (16, 6), (13, 5), (10, 4)):
        if remaining >= low:
            return seats
    return None


def check_rush_config(config: TournamentConfig) -> None:
    """A Rush tournament cannot take rebuys or an add-on: its entries play in a fast-fold pool where a
    broke entry leaves at once (a stated product choice, issue 18)."""
    if config.rebuy_levels or config.add_on:
        raise ConfigError(f"{config.tournament_id}: a Rush tournament has no rebuys and no add-on")
    if config.bounty:  # (its pool phase's knockouts are not decided yet: issue 35)
        raise ConfigError(f"{config.tournament_id}: a Rush tournament has no bounties")
    if config.max_entries > 1:  # (a broke entry leaves the pool at once; a re-entry would join it anew)
        raise ConfigError(f"{config.tournament_id}: a Rush tournament has no re-entry")
    if config.mix:  # a pool deals one game: a mix's level-by-level rotation is not built for it
        raise ConfigError(f"{config.tournament_id}: a Rush tournament plays one game, not a mix")


class RushTournamentDirector(TournamentDirector):
    """A tournament played in a Rush pool (one entry per player) until nine or fewer players remain.
    Rush tournaments have no rebuys and no add-on (refused when configured: docs/tournaments.md)."""

    mode = "rush"  # its own discipline for the Game of the Week (§7.3)

    def __init__(
        self, config: TournamentConfig, rng: RandomSource, points: PointsPolicy | None = None
    ) -> None:
        check_rush_config(config)
        super().__init__(config, rng, points)
        self.rush: RushPool | None = None  # (``self.pool`` is the prize pool)

    @property
    def rush_mode(self) -> bool:
        return self.rush is not None

    def _seat_everybody(self, now: datetime) -> Output:
        cfg = self.config
        if len(self.entrants) <= FINAL_TABLE:
            return super()._seat_everybody(now)
        stakes = level_stakes(self.level(now), cfg.betting, cfg.spec.is_stud, cfg.ante)
        pool_cfg = PoolConfig(
            f"{self.tid}-rush",
            cfg.name,
            cfg.variant,
            cfg.betting,
            stakes,
            9,
            min_buy_in=cfg.starting_stack,
            max_buy_in=cfg.starting_stack,
            currency=cfg.currency,
            max_entries=1,
        )
        pool = RushPool(pool_cfg, self.rng)
        pool.tournament = True
        players = list(self.entrants)
        for i in range(len(players) - 1, 0, -1):  # join in random order: the first tables are random
            j = self.rng.randrange(i + 1)
            players[i], players[j] = players[j], players[i]
        for player in players:
            e = self.entrants[player]
            e.stack = cfg.starting_stack
            pool.join(player, e.name, cfg.starting_stack, now)
        for entry in pool.entries.values():
            entry.first = False  # everybody starts together: no first-hand big blind
        self.rush = pool
        return []

    def _seat_late(self, player: str, now: datetime) -> Output:
        if self.rush is None:
            return super()._seat_late(player, now)
        e = self.entrants[player]
        e.stack = self.config.starting_stack
        return self._rush(self.rush.join(player, e.name, e.stack, now), now)  # its notices, not its money

    def entry_of(self, player: str) -> str:
        return entry_key(player, 1)

    # --------------------------------------------------------------------------------- play

    def act(self, player: str, command: Command, now: datetime) -> Output:
        if self.rush is None:
            return super().act(player, command, now)
        return self._rush(self.rush.act(self.entry_of(player), command, now), now)

    def quick_fold(self, player: str, now: datetime) -> Output:
        if self.rush is None:
            raise QuickFoldRefused(None, "it is played in the Rush phase only (R215)")
        return self._rush(self.rush.quick_fold(self.entry_of(player), now), now)

    def restart_clocks(self, now: datetime) -> Output:
        if self.rush is None:
            return super().restart_clocks(now)
        return self._rush(self.rush.restart_clocks(now), now)

    def void_hands(self, now: datetime) -> Output:
        """In the Rush phase every hand in progress is void: each entry has the chips it had when the
        oldest of them that dealt it in started (a quick-folded entry carried its result on to newer
        hands), and waits for a new table."""
        if self.rush is None:
            return super().void_hands(now)
        stacks: dict[str, int] = {}
        for t in self.rush.tables.values():  # (in the order they were opened: the oldest first)
            for seat, eid in t.entries.items():
                stacks.setdefault(eid, t.hand.players[seat].starting_stack)
        out = self._rush(self.rush.void_all(stacks, now), now)
        for e in self.rush.entries.values():
            self.entrants[e.player].stack = e.stack
        return out

    def tick(self, now: datetime) -> Output:
        if self.rush is None or self.status != "running":
            return super().tick(now)
        pool = self.rush
        assert self.schedule is not None
        size = rush_table_size(len(self.remaining))
        pool.dealing = size is not None and not self.schedule.in_break(now)
        if size is not None:
            pool.table_size = size
        cfg = self.config
        pool.stakes = level_stakes(self.level(now), cfg.betting, cfg.spec.is_stud, cfg.ante)
        out = self._rush(pool.tick(now), now)
        if self.status == "running":
            out += self._settle_and_check(now)
        if self.status == "running" and size is None and not pool.tables:
            out += self._final_table(now)
            out += super().tick(now)  # its first hand at once: a table never waits idle
        return out

    def _rush(self, out: Output, now: datetime) -> Output:
        """Keep what the players see; drop the pool's money effects (tournament chips are not money);
        eliminate players who went broke, ranked by their stacks at the start of that hand (R234)."""
        kept: Output = []
        for item in out:
            if isinstance(item, HandFinished):
                kept.append(item)
                if self.status == "running":  # (a satellite may end with the first of several hands)
                    kept += self._rush_hand_ended(item, now)
            elif type(item).__module__.endswith("effects"):
                continue
            else:
                kept.append(item)
        return kept

    def _rush_hand_ended(self, item: HandFinished, now: datetime) -> Output:
        assert self.rush is not None
        hand = item.record.hand
        busted: list[tuple[str, int]] = []
        for seat, (player, _) in item.record.players.items():
            e = self.entrants[player]
            if e.out:
                continue
            entry = self.rush.entries.get(self.entry_of(player))
            e.stack = entry.stack if entry is not None else hand.stacks()[seat]
            if e.stack == 0:
                busted.append((player, hand.players[seat].starting_stack))
                self.rush.eliminate(self.entry_of(player))
        return self._eliminate(busted, now) if busted else []

    def _final_table(self, now: datetime) -> Output:
        """Nine or fewer left: one table in standard mode, one hand at a time, no Quick Fold (R215)."""
        cfg = self.config
        assert self.rush is not None
        self.rush = None
        table = TournamentTable(self.tid, 1, FINAL_TABLE, cfg.spec, cfg.betting, cfg.timing, self.rng)
        self.tables = {1: table}
        players = [e.player for e in self.remaining]
        seats = list(range(1, FINAL_TABLE + 1))
        out: Output = []
        for player in players:
            seat = seats.pop(self.rng.randrange(len(seats)))
            e = self.entrants[player]
            e.table, e.seat = 1, seat
            table.add(TPlayer(player, e.name, seat, e.stack, cfg.timing.time_bank), moved=False)
            out.append(PlayerMoved(self.tid, player, 1, seat))
        self._next_hand[1] = now
        return out
