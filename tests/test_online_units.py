"""Unit tests of the online pieces on recorded protocol lines and login-server answers."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from poke_env.battle import Battle

from randbot.errors import RandbotError, ServerError
from randbot.online.credentials import MASK, Credentials, RedactingFilter, Secret, read_password
from randbot.online.errors import LoginError
from randbot.online.login import parse_login_response
from randbot.online.protocol import (
    ResumeFilter,
    is_benign_popup,
    parse_rating,
    popup_summary,
)
from randbot.online.ratelimit import RateLimiter, RateLimits
from randbot.online.results import BattleWatcher, ResultsLog
from randbot.online.servers import OFFICIAL_WEBSOCKET, check_reachable, resolve_server

FIXTURES = Path(__file__).parent / "fixtures" / "online"


# -- login server answers (formats from smogon/pokemon-showdown-loginserver) ---------------
LOGIN_OK = (
    ']{"actionsuccess":true,"assertion":"4c1b2e,alice,2,1795300000,sim3;0a1b2c",'
    '"curuser":{"loggedin":true,"username":"Alice","userid":"alice"}}'
)


def test_login_success_gives_the_assertion() -> None:
    assert parse_login_response(LOGIN_OK, "Alice") == "4c1b2e,alice,2,1795300000,sim3;0a1b2c"


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (']{"actionsuccess":false,"assertion":false}', "wrong password for 'Alice'"),
        (
            ']{"actionerror":"Too many unsuccessful login attempts"}',
            "the login server refused 'Alice': Too many unsuccessful login attempts",
        ),
        (
            ']{"actionsuccess":true,"assertion":";;Your username is locked."}',
            "the login server refused 'Alice': Your username is locked.",
        ),
        ("<html>502 Bad Gateway</html>", "the login server sent something unexpected"),
        ("", "the login server sent something unexpected"),
    ],
)
def test_login_failures_are_one_line_naming_the_cause(answer: str, message: str) -> None:
    with pytest.raises(LoginError) as error:
        parse_login_response(answer, "Alice")
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


# -- credentials ------------------------------------------------------------------------------
def test_secret_never_prints_itself() -> None:
    secret = Secret("hunter2")
    credentials = Credentials("alice", secret)
    for text in (str(secret), repr(secret), repr(credentials), f"{credentials}"):
        assert "hunter2" not in text
    assert secret.reveal() == "hunter2"


def test_password_from_file_first_line(tmp_path: Path) -> None:
    path = tmp_path / "pw"
    path.write_text("s3cret pass\nignored\n")
    path.chmod(0o600)
    assert read_password("RANDBOT_TEST_UNSET", str(path)).reveal() == "s3cret pass"


def test_password_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RANDBOT_TEST_PW", "fromenv")
    assert read_password("RANDBOT_TEST_PW").reveal() == "fromenv"
    monkeypatch.delenv("RANDBOT_TEST_PW")
    assert read_password("RANDBOT_TEST_PW") is None


def test_missing_or_empty_password_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(RandbotError, match="cannot read --password-file"):
        read_password(password_file=str(tmp_path / "nope"))
    (tmp_path / "empty").write_text("")
    with pytest.raises(RandbotError, match="is empty"):
        read_password(password_file=str(tmp_path / "empty"))


def test_redacting_filter_blanks_message_args_and_traceback() -> None:
    secret = Secret("hunter2")
    redactor = RedactingFilter(secret)
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "sent %s", ("pass=hunter2",), None)
    assert redactor.filter(record)
    assert record.getMessage() == f"sent pass={MASK}"
    try:
        raise ValueError("bad hunter2")
    except ValueError as error:
        exc_info = (type(error), error, error.__traceback__)
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom", (), exc_info)
    redactor.filter(record)
    assert "hunter2" not in record.exc_text


# -- servers ----------------------------------------------------------------------------------
def test_resolve_server() -> None:
    official = resolve_server("showdown")
    assert official.official and official.websocket_url == OFFICIAL_WEBSOCKET
    local = resolve_server("ws://127.0.0.1:8000/showdown/websocket")
    assert not local.official
    with pytest.raises(ServerError, match="--server must be"):
        resolve_server("http://example")


def test_unreachable_server_is_one_line() -> None:
    from randbot.localserver import free_port

    target = resolve_server(f"ws://127.0.0.1:{free_port()}/showdown/websocket")
    with pytest.raises(
        ServerError, match=r"^cannot reach ws://127\.0\.0\.1:\d+/showdown/websocket"
    ):
        check_reachable(target, timeout=2)


# -- rate limits ------------------------------------------------------------------------------
class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_rate_limiter_spaces_rooms_globally_and_challenges() -> None:
    clock = FakeClock()
    limiter = RateLimiter(
        RateLimits(room_interval=0.6, global_interval=0.3, challenge_interval=11), clock
    )
    assert limiter.delay_for("battle-1", "/choose move 1") == 0
    limiter.record("battle-1", "/choose move 1")
    assert limiter.delay_for("battle-1", "/choose move 2") == pytest.approx(0.6)
    assert limiter.delay_for("battle-2", "/choose move 1") == pytest.approx(0.3)
    limiter.record("", "/challenge bob, gen9randombattle")
    clock.now += 5
    assert limiter.delay_for("", "/challenge bob, gen9randombattle") == pytest.approx(6)
    assert limiter.delay_for("battle-3", "/choose move 1") == 0
    assert RateLimits.official().room_interval >= 0.6


def test_rate_limiter_waits_on_the_loop() -> None:
    async def scenario() -> float:
        limiter = RateLimiter(RateLimits(room_interval=0.2))
        loop = asyncio.get_running_loop()
        start = loop.time()
        for _ in range(3):
            await limiter.wait("battle-1", "/choose default")
        return loop.time() - start

    assert asyncio.run(scenario()) >= 0.39


# -- ratings and popups -----------------------------------------------------------------------
def test_parse_rating_line_from_the_local_ladder() -> None:
    line = "|raw|vera's rating: 1045 &rarr; <strong>1071</strong><br />(+26 for winning)"
    change = parse_rating(line)
    assert change is not None and (change.name, change.before, change.after) == ("vera", 1045, 1071)
    assert parse_rating("|raw|<div>something else</div>") is None


def test_popups() -> None:
    assert popup_summary("Your team was rejected for the following reasons:||- Bad") == (
        "Your team was rejected for the following reasons:; Bad"
    )
    assert is_benign_popup(
        "Couldn't search: You are already searching for a gen9randombattle battle."
    )
    assert not is_benign_popup("Error: Your format gen8bdsprandombattle is not ladderable.")


# -- resuming a rejoined battle ---------------------------------------------------------------
def _recorded() -> dict:
    return json.loads((FIXTURES / "rejoined_battles.json").read_text())


SKIPPED = {"", "request", "init", "title", "win", "tie", "raw", "j", "J", "t:", "error", "bigerror"}


def _parse_into(battle: Battle, lines: list[str]) -> None:
    # As poke-env's Player does, minus requests and the lines it never parses.
    for line in lines:
        parts = line.split("|")
        if len(parts) < 2 or parts[1] in SKIPPED:
            continue
        battle.parse_message(parts)


def _state(battle: Battle) -> dict:
    state: dict = {"turn": battle.turn}
    for side, team in (("us", battle.team), ("them", battle.opponent_team)):
        for key, mon in team.items():
            state[f"{side}:{key}"] = (mon.current_hp, mon.status, dict(mon.boosts), mon.active)
    state["hazards"] = (dict(battle.side_conditions), dict(battle.opponent_side_conditions))
    return state


@pytest.mark.parametrize("tag", ["battle-gen9randombattle-6", "battle-gen9randombattle-7"])
def test_resume_filter_gives_the_state_of_a_fresh_parse(tag: str) -> None:
    recorded = _recorded()
    messages = recorded["battles"][tag]
    resends = [i for i, m in enumerate(messages) if any(x.startswith("|init|") for x in m)][1:]
    assert resends, "the fixture must contain a rejoin"
    resume = ResumeFilter()
    live = Battle(tag, recorded["username"], logging.getLogger("test"), gen=9)
    delivered_after_resend = []
    for i, message in enumerate(messages):
        lines = resume.filter(tag, message)
        if i in resends:
            delivered_after_resend.append(lines)
        _parse_into(live, lines)
    # Reference: the server's own full log at the last rejoin, then what followed.
    fresh = Battle(tag, recorded["username"], logging.getLogger("test"), gen=9)
    for message in messages[resends[-1] :]:
        _parse_into(fresh, message)
    assert _state(live) == _state(fresh)
    assert resume.resumed == len(resends)
    # A resend delivers far less than the whole log: only what was missed.
    for i, lines in zip(resends, delivered_after_resend, strict=True):
        assert len(lines) < len(messages[i]) / 2


def test_resume_filter_drops_an_answered_request() -> None:
    resume = ResumeFilter()
    resume.filter("battle-x-1", ["|init|battle", "|switch|p1a: A|A, L80|100/100", "|turn|1"])
    resent = resume.filter(
        "battle-x-1", ["|init|battle", "|switch|p1a: A|A, L80|100/100", "|turn|1"]
    )
    assert resent == []
    answered = resume.filter("battle-x-1", ['|request|{"rqid": 3}', "|sentchoice|move 1"])
    assert answered == []
    pending = resume.filter("battle-x-1", ['|request|{"rqid": 3}'])
    assert pending == ['|request|{"rqid": 3}']


# -- results ---------------------------------------------------------------------------------
def test_watcher_records_a_rated_battle_with_ratings(tmp_path: Path) -> None:
    recorded = _recorded()
    tag = "battle-gen9randombattle-6"
    resume = ResumeFilter()
    watcher = BattleWatcher("vera", "ladder", ResultsLog(tmp_path / "results.jsonl"))
    for message in recorded["battles"][tag]:
        watcher.observe(tag, resume.filter(tag, message))
    assert watcher.battles[tag].ended
    watcher.finish(tag)
    (line,) = (tmp_path / "results.jsonl").read_text().splitlines()
    record = json.loads(line)
    assert record["battle"] == tag and record["rated"] is True
    assert record["outcome"] in ("win", "loss") and record["opponent"] == "vbob"
    assert isinstance(record["rating_before"], int) and isinstance(record["rating_after"], int)
    assert isinstance(record["opponent_rating_after"], int)
    assert record["turns"] > 0
    watcher.finish(tag)  # only once
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 1


# -- challenges pending to us ---------------------------------------------------------------
def _pending_after_each_message(messages: list[str]) -> list[dict[str, str]]:
    """Feed recorded global messages to a client logged in as bob; its pending table after each."""
    from poke_env.ps_client.account_configuration import AccountConfiguration

    from randbot.localserver import server_configuration
    from randbot.online.client import ReconnectingClient

    async def scenario() -> list[dict[str, str]]:
        client = ReconnectingClient(
            AccountConfiguration("bob", None),
            server_configuration=server_configuration("ws://127.0.0.1:1/showdown/websocket"),
            watcher=BattleWatcher("bob", "accept", ResultsLog(None)),
            loop=asyncio.get_running_loop(),
        )
        client._handle_message = _ignore  # type: ignore[method-assign]  # poke-env's own reading
        seen = []
        for message in messages:
            client._receive(message)
            seen.append(dict(client.challenges_to_us))
        return seen

    return asyncio.run(scenario())


async def _ignore(message: str) -> None:
    return None


def test_pending_challenges_follow_the_servers_challenge_messages() -> None:
    # Recorded on the local server: alice challenges bob, cancels, challenges again, bob accepts,
    # then bob accepts once more (refused in a popup: nothing pending).
    messages = [
        json.loads(line)[1] for line in (FIXTURES / "challenge_pms.jsonl").read_text().splitlines()
    ]
    pending = _pending_after_each_message(messages)
    by_message = dict(zip(messages, pending, strict=True))
    first_challenge = messages.index(
        "|pm| alice| bob|/challenge gen9randombattle|gen9randombattle|||"
    )
    assert pending[first_challenge] == {"alice": "gen9randombattle"}
    assert pending[first_challenge + 1] == {"alice": "gen9randombattle"}  # the /log line
    withdrawn = messages.index("|pm| bob| alice|/challenge")
    assert pending[withdrawn] == {}
    assert pending[withdrawn + 1] == {"alice": "gen9randombattle"}  # challenged again
    assert pending[-1] == {} and by_message[messages[-1]] == {}


def test_a_challenge_in_a_message_of_several_lines_is_pending_too() -> None:
    # Recorded one per message; a second connection of a logged-in user gets every pending
    # challenge joined in one message (the server's `updateFor`), which poke-env does not read.
    lines = [
        json.loads(line)[1]
        for line in (FIXTURES / "challenges_three_users.jsonl").read_text().splitlines()
    ]
    (pending,) = _pending_after_each_message(["\n".join(lines)])
    # bob challenges dave: that one is not a challenge to bob
    assert pending == {"alice": "gen9randombattle", "carol": "gen9monotyperandombattle"}
