"""The web table without a browser: tokens, moves, refused moves, the views pushed by server-sent events, the
log and resuming, and the secrecy of every response (over a whole Bourré match and a Burraco hand)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
httpx2 = pytest.importorskip("httpx2", reason="httpx2 (in the web extra) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.cli import cli  # noqa: E402
from interpreter.engine.errors import IllegalActionError  # noqa: E402
from interpreter.runners.replay import replay  # noqa: E402
from interpreter.web.app import NO_SEAT, create_app  # noqa: E402
from interpreter.web.table import RefusedMove, Table  # noqa: E402
from tests.web_helpers import BOURRE, BURRACO, Recorder, Secrecy, live_server, make_table, sse_views  # noqa: E402


def _client(table: Table, secrecy: Secrecy | None = None) -> tuple[TestClient, Recorder]:
    recorder = Recorder(create_app(table), table, secrecy)
    return TestClient(recorder), recorder


def _checked_messages(table: Table, secrecy: Secrecy) -> list[int]:
    """Check every message the table makes for a seat, as it is made (the event streams send these too);
    the number checked, in a list that grows."""
    made = [0]
    message = table.message

    def checked(seat: int) -> dict[str, Any]:
        found = message(seat)
        secrecy.check(seat, json.dumps(found, ensure_ascii=False), f"message to p{seat}")
        made[0] += 1
        return found

    table.message = checked  # type: ignore[method-assign]
    return made


def _play(client: TestClient, table: Table, *, seed: int, moves: int, stale_every: int = 0) -> int:
    """Make moves for the people at the table, chosen at random from the buttons their pages show; every
    `stale_every` moves, a seat not on turn tries one first. The number of moves made."""
    choose = random.Random(seed)
    made = 0
    while not table.state.is_terminal and made < moves:
        for seat in table.humans:
            token = table.token_of(seat)
            view = client.get(f"/seat/{token}/view").json()
            if not view["is_your_turn"]:
                if stale_every and made % stale_every == 0:
                    answer = client.post(f"/seat/{token}/move", json={"action": "play AS"})
                    assert answer.status_code == 409 and "turn" in answer.json()["error"]
                continue
            answer = client.post(f"/seat/{token}/move", json={"action": choose.choice(view["legal_actions"])})
            assert answer.status_code == 200, answer.json()
            made += 1
    return made


def test_a_request_without_a_valid_token_sees_nothing_of_the_match() -> None:
    table = make_table(BOURRE, players=3, seed=1, humans=[0, 2])
    client, recorder = _client(table)
    with client:
        tokens = list(table.tokens)
        assert len(set(tokens)) == 2 and all(len(token) >= 24 for token in tokens)
        for path in ("/", "/seat/nope", "/seat/nope/view", "/seat/nope/events", f"/seat/{tokens[0]}x/view"):
            answer = client.get(path)
            assert answer.status_code == 404 and answer.text == NO_SEAT
        answer = client.post("/seat/nope/move", json={"action": "choose pass"})
        assert answer.status_code == 404 and answer.text == NO_SEAT
        assert client.get(f"/seat/{tokens[0]}").status_code == 200
    assert all(body == NO_SEAT for seat, _path, body in recorder.sent if seat is None)


def test_a_seat_gets_its_page_and_its_view() -> None:
    table = make_table(BOURRE, players=3, seed=2, humans=[1])
    client, _ = _client(table)
    with client:
        token = table.token_of(1)
        page = client.get(f"/seat/{token}")
        assert page.status_code == 200 and "/static/table.js" in page.text
        assert page.headers["cache-control"] == "no-store"
        assert '<link rel="icon" href="data:' in page.text  # (its own icon: a browser asks for no /favicon.ico)
        view = client.get(f"/seat/{token}/view").json()
        assert view["seat"] == 1 and view["is_your_turn"] and view["legal_actions"]
        assert [seat["kind"] for seat in view["seats"]] == ["bot", "you", "bot"]
        assert view["hand"] and view["recent"]  # the bot before it has already chosen
        for name in ("table.js", "table.css", "table.html"):
            assert client.get(f"/static/{name}").status_code == 200


def test_a_move_is_made_and_the_bots_answer_it() -> None:
    table = make_table(BOURRE, players=3, seed=3, humans=[0])
    client, _ = _client(table)
    with client:
        token = table.token_of(0)
        view = client.get(f"/seat/{token}/view").json()
        move = view["legal_actions"][0]
        answer = client.post(f"/seat/{token}/move", json={"action": move.removeprefix("p0 ")})  # (seat optional)
        assert answer.status_code == 200
        after = answer.json()["view"]
        assert after["version"] > view["version"]
        assert move in [table.state.action_text(action) for action in table.state.history]
        assert after["is_your_turn"] or after["is_over"]  # the bots have played up to p0's next turn


def test_an_illegal_attempt_is_answered_with_the_rule_that_forbids_it() -> None:
    table = make_table(BOURRE, players=3, seed=4, humans=[0], params={"hands": 1})
    client, _ = _client(table)
    with client:
        token = table.token_of(0)
        refused = None
        for _ in range(60):  # on to a trick, where a card of the hand may be refused with the ruleset's reason
            state = table.state
            hand = [card for group in table.message(0)["hand"] for card in group["cards"]]
            for card in hand:
                try:
                    state.check(state.parse_action(f"p0 play {card}"))
                except IllegalActionError as error:
                    if "turn" not in str(error) and "not" not in str(error).split(":")[0][-6:]:
                        refused = (card, str(error))
                        break
                except Exception:  # (not a move of this phase)
                    break
            if refused:
                break
            view = client.get(f"/seat/{token}/view").json()
            client.post(f"/seat/{token}/move", json={"action": view["legal_actions"][-1]})
        assert refused, "no refused card in sixty moves"
        before = table.version
        answer = client.post(f"/seat/{token}/move", json={"action": f"play {refused[0]}"})
        assert answer.status_code == 409 and answer.json()["error"] == refused[1]
        assert table.version == before and answer.json()["view"]["is_your_turn"]
        assert client.post(f"/seat/{token}/move", json={"action": "fly away"}).status_code == 409
        assert client.post(f"/seat/{token}/move", content=b"not json").status_code == 400
        assert client.post(f"/seat/{token}/move", json=["play"]).status_code == 400


def test_no_response_names_a_hidden_card_of_another_seat_over_a_whole_bourre_match() -> None:
    table = make_table(BOURRE, players=4, seed=5, humans=[0, 2])
    secrecy = Secrecy(table.state)
    made = _checked_messages(table, secrecy)
    client, recorder = _client(table, secrecy)
    with client:
        _play(client, table, seed=5, moves=2000, stale_every=7)
    assert table.state.is_terminal
    assert made[0] > 100 and len(recorder.sent) > 100 and secrecy.checked == len(recorder.sent) + made[0]


def test_no_response_names_a_hidden_card_of_another_seat_over_a_burraco_hand() -> None:
    table = make_table(BURRACO, players=4, seed=6, humans=[0, 1])
    secrecy = Secrecy(table.state)
    _checked_messages(table, secrecy)
    client, _ = _client(table, secrecy)
    with client:
        while table.state.values["hand_number"] == 1 and not table.state.is_terminal:
            assert _play(client, table, seed=6, moves=20, stale_every=5) > 0
    assert secrecy.checked > 50


def test_the_pages_of_the_others_are_pushed_each_move() -> None:
    table = make_table(BOURRE, players=3, seed=7, humans=[0, 1])
    with live_server(create_app(table)) as base, httpx2.Client(base_url=base, timeout=10) as client:
        first = table.state.current_player
        other = 1 - first
        with client.stream("GET", f"/seat/{table.token_of(other)}/events") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            views = sse_views(stream.iter_lines())
            now = next(views)
            assert now["seat"] == other and not now["is_your_turn"]
            move = now_move = client.get(f"/seat/{table.token_of(first)}/view").json()["legal_actions"][0]
            assert client.post(f"/seat/{table.token_of(first)}/move", json={"action": move}).status_code == 200
            pushed = next(views)
            assert pushed["version"] > now["version"] and now_move in pushed["recent"]
        assert client.get("/seat/nope/events").status_code == 404


def test_a_match_is_logged_as_it_goes_and_resumed_from_its_log(tmp_path: Path) -> None:
    from interpreter.cli_serve import _table
    log = tmp_path / "served.jsonl"
    table, path, _ = _table(str(BOURRE), 3, 8, (), "1", "heuristic", str(log), None, 0.0)
    assert path == str(log)
    client, _ = _client(table)
    with client:
        _play(client, table, seed=8, moves=4)
    made = len(table.state.history)
    assert made > 4 and not table.state.is_terminal  # abandoned: the server stopped
    assert replay(log).history == table.state.history
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["humans"] == [1] and header["seed"] == 8

    resumed, _, _ = _table(None, None, None, (), None, "heuristic", None, str(log), 0.0)  # (its people's seats)
    assert resumed.humans == (1,) and resumed.state.history == table.state.history
    assert resumed.token_of(1) != table.token_of(1)
    client, _ = _client(resumed)
    with client:
        _play(client, resumed, seed=9, moves=2000)
    assert resumed.state.is_terminal
    again = replay(log)  # the whole match, checked event by event, with its result line
    assert again.is_terminal and again.returns() == resumed.state.returns()
    with pytest.raises(Exception, match="over"):
        _table(None, None, None, (), "0", "heuristic", None, str(log), 0.0)


def test_the_command_to_go_on_keeps_the_seats_and_bots_the_log_does_not(tmp_path: Path) -> None:
    """The log gives the people's seats back as the match started; seats given to people when it was resumed,
    and the bots, are not in it: the command printed to go on with the match names them."""
    from interpreter.cli_serve import _table
    log = tmp_path / "my match.jsonl"
    table, _, going_on = _table(str(BOURRE), 3, 12, (), "1", "random", str(log), None, 0.0)
    assert going_on == f"ruledeck serve --resume '{log}' --bots random"
    with _client(table)[0] as client:
        _play(client, table, seed=12, moves=2)
    table.close()
    resumed, _, going_on = _table(None, None, None, (), "0,2", "heuristic", None, str(log), 0.0)
    assert resumed.humans == (0, 2) and going_on == f"ruledeck serve --resume '{log}' --humans 0,2"
    resumed.close()
    again, _, going_on = _table(None, None, None, (), None, "heuristic", None, str(log), 0.0)
    assert again.humans == (1,) and going_on == f"ruledeck serve --resume '{log}'"  # (the log's own seats)
    again.close()
    played = tmp_path / "played.jsonl"  # (a log of `play`, whose header names no people: a resume gives p0)
    assert CliRunner().invoke(cli, ["play", str(BOURRE), "--players", "3", "--seed", "3", "--bots", "random",
                                    "--log", str(played)]).exit_code == 0
    played.write_text("".join(played.read_text(encoding="utf-8").splitlines(keepends=True)[:20]), encoding="utf-8")
    table, _, going_on = _table(None, None, None, (), "1", "heuristic", None, str(played), 0.0)
    assert table.humans == (1,) and going_on == f"ruledeck serve --resume {played} --humans 1"
    table.close()



def test_the_command_to_go_on_serves_the_table_at_the_same_port_and_pace(tmp_path: Path) -> None:
    # `serve --port 8123 --bot-delay 0.3`, stopped: the command printed to go on dropped both, and the table
    # came back at another address, with bots at another pace.
    from interpreter.cli_serve import _serving, _table
    assert _serving(8000, "127.0.0.1", 0.8) == ()
    serving = _serving(8123, "127.0.0.1", 0.3)
    assert serving == ("--port 8123", "--bot-delay 0.3")
    log = tmp_path / "served.jsonl"
    table, _, going_on = _table(str(BOURRE), 3, 12, (), "0", "heuristic", str(log), None, 0.3, serving)
    assert going_on == f"ruledeck serve --resume {log} --port 8123 --bot-delay 0.3"
    table.close()


def test_an_edited_log_is_not_resumed(tmp_path: Path) -> None:
    from interpreter.cli_serve import _table
    log = tmp_path / "served.jsonl"
    table, _, _ = _table(str(BOURRE), 3, 10, (), "0", "heuristic", str(log), None, 0.0)
    with _client(table)[0] as client:
        _play(client, table, seed=10, moves=3)
    lines = log.read_text(encoding="utf-8").splitlines()
    header: dict[str, Any] = json.loads(lines[0])
    lines[0] = json.dumps({**header, "seed": 11})
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = CliRunner().invoke(cli, ["serve", "--resume", str(log)])
    assert code.exit_code != 0 and "Traceback" not in code.output


def test_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    answer = runner.invoke(cli, ["serve", "--help"])
    assert answer.exit_code == 0 and "--humans" in answer.output and "--resume" in answer.output
    answer = runner.invoke(cli, ["serve", str(BOURRE), "--players", "3", "--humans", "5"])
    assert answer.exit_code == 2 and "--humans: seats are 0 to 2" in answer.output
    answer = runner.invoke(cli, ["serve", str(BOURRE), "--humans", "x"])
    assert answer.exit_code == 2 and "--humans" in answer.output
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "starlette" else real(name))
    answer = runner.invoke(cli, ["serve", str(BOURRE)])
    assert answer.exit_code == 2 and "pip install 'ruledeck[web]'" in answer.output
    assert answer.exception is None or isinstance(answer.exception, SystemExit)


def test_the_secrecy_check_sees_a_card_sent_to_the_wrong_seat() -> None:
    table = make_table(BOURRE, players=3, seed=14, humans=[0])
    asyncio.run(table.start())
    secrecy = Secrecy(table.state)
    secrecy.check(0, json.dumps(table.message(0)), "p0's own view")
    other = [card for group in table.message(1)["hand"] for card in group["cards"]]
    hidden = [card for card in other if card not in secrecy.seen[0]]
    assert hidden
    with pytest.raises(AssertionError, match=hidden[0]):
        secrecy.check(0, json.dumps({"hand": hidden}), "a leak")


TEXAS = Path(__file__).resolve().parents[1] / "games" / "texas_holdem.yaml"
SCOPA = Path(__file__).resolve().parents[1] / "games" / "scopa.yaml"
JOKERS = Path(__file__).resolve().parents[1] / "games" / "president_jokers.yaml"


def test_a_move_sent_again_from_an_older_page_is_refused_not_made_at_the_next_turn() -> None:
    # A click sent twice, a second tab, a page left behind: the move names the count of the seat's moves its page
    # showed, and a move made on an older page is refused (it folded the next hand, unseen).
    table = make_table(TEXAS, players=4, seed=3, humans=[0])
    client, _ = _client(table)
    with client:
        url = f"/seat/{table.token_of(0)}/move"
        view = client.get(f"/seat/{table.token_of(0)}/view").json()
        shown = view["moves_made"]
        first = client.post(url, json={"action": view["legal_actions"][0], "moves_made": shown})
        assert first.status_code == 200
        mine = [action for action in table.state.history if action.seat == 0]
        again = client.post(url, json={"action": view["legal_actions"][0], "moves_made": shown})
        assert again.status_code == 409 and "no longer shows the table" in again.json()["error"]
        assert [action for action in table.state.history if action.seat == 0] == mine  # (nothing made)
        assert again.json()["view"]["moves_made"] == shown + 1
        bad = client.post(url, json={"action": "choose fold", "moves_made": "1"})
        assert bad.status_code == 400


def test_a_request_too_big_or_too_deep_is_a_client_error() -> None:
    table = make_table(BOURRE, players=3, seed=3, humans=[0])
    client, _ = _client(table)
    with client:
        url = f"/seat/{table.token_of(0)}/move"
        assert client.post(url, content=b"[" * 1000 + b"]" * 1000).status_code == 400  # (was a 500)
        assert client.post(url, json={"action": "play " + "A" * 100_000}).status_code == 413
        long = client.post(url, json={"action": "play " + "A" * 5_000})
        assert long.status_code == 409 and "A" * 100 not in long.json()["error"]


@pytest.mark.parametrize(("text", "said"), [
    ("p2 choose pass", "you are p0: a move for p2 is theirs to make"),
    ("P2\tchoose pass", "you are p0: a move for p2 is theirs to make"),
])
def test_a_move_for_another_seat_is_refused_in_plain_words(text: str, said: str) -> None:
    table = make_table(BOURRE, players=3, seed=3, humans=[0])
    asyncio.run(table.start())
    with pytest.raises(RefusedMove, match=said):
        asyncio.run(table.move(0, text))
    own = table.message(0)["legal_actions"][0]
    asyncio.run(table.move(0, own.replace("p0 ", "P0\t", 1)))  # (its own seat, however written)
    assert table.state.history[-1].seat != 0 or table.state.is_terminal or own in [
        table.state.action_text(action) for action in table.state.history]


def test_a_move_while_the_cards_are_dealt_is_told_to_wait() -> None:
    table = make_table(BOURRE, players=4, seed=1, humans=[0], bot_delay=0.5)  # (at the shuffle, not started)
    with pytest.raises(RefusedMove, match="the cards are being dealt: wait for your turn"):
        asyncio.run(table.move(0, "choose pass"))


def test_a_bot_thinks_on_a_copy_without_holding_up_the_pages() -> None:
    # A search bot may think for seconds: the event loop answers the pages meanwhile, and the bot is given a
    # copy of the state (the heuristic bot tries cards in the values it reads, which no page may see).
    table = make_table(BOURRE, players=3, seed=3, humans=[0])
    given: list[bool] = []
    thinking = table.bots[1]
    assert thinking is not None

    def slow(state: Any) -> Any:
        given.append(state is table.state)
        import time
        time.sleep(0.3)
        return thinking(state)

    table.bots = [None, slow, slow]

    async def run() -> float:
        async def probe() -> float:
            start = asyncio.get_running_loop().time()
            await asyncio.sleep(0.05)
            table.message(0)
            return asyncio.get_running_loop().time() - start

        _, waited = await asyncio.gather(table.start(), probe())
        return waited

    waited = asyncio.run(run())
    assert given and not any(given)
    assert waited < 0.25, waited  # (it waited for the bot's 0.3 s when the bot thought on the loop)


def test_the_last_moves_shown_reach_back_to_the_seats_own_last_move() -> None:
    # Seven seats: more lines may come between two of a person's turns than the fewest shown (12); the page shows
    # every line of the hand since the seat's own last move.
    from interpreter.view import table_view
    table = make_table(BOURRE, players=7, seed=5, humans=[0])
    asyncio.run(table.start())
    longer = 0
    for _ in range(40):
        if table.state.is_terminal:
            break
        asyncio.run(table.move(0, table.message(0)["legal_actions"][0]))
        shown = list(table.message(0)["recent"])
        whole = list(table_view(table.state, 0, recent=10_000).recent)  # (the hand's lines, all of them)
        assert whole[len(whole) - len(shown):] == shown
        if 12 < len(shown) < len(whole):  # (then the line before them is p0's own move; else it is of a hand before)
            longer += 1
            own = [table.state.action_text(action) for action in table.state.history if action.seat == 0]
            assert whole[len(whole) - len(shown) - 1] == own[-1]
    assert longer


def test_the_page_is_told_how_this_deck_draws_its_cards() -> None:
    french = make_table(BOURRE, players=3, seed=3, humans=[0]).message(0)["deck"]
    assert french["suits"]["H"] == {"sign": "♥", "colour": "red"} and french["jokers"] == []
    italian = make_table(SCOPA, players=2, seed=3, humans=[0]).message(0)["deck"]
    assert italian["suits"]["C"] == {"sign": "C", "colour": ""}  # (coppe, not clubs)
    assert make_table(JOKERS, players=4, seed=3, humans=[0]).message(0)["deck"]["jokers"] == ["BJ", "RJ"]


def test_the_event_stream_ends_when_the_server_stops() -> None:
    table = make_table(BOURRE, players=3, seed=3, humans=[0])
    calls = [0]

    def stopping() -> bool:
        calls[0] += 1
        return calls[0] > 2  # (stopping once the first view is sent)

    with TestClient(create_app(table, stopping=stopping)) as client, \
            client.stream("GET", f"/seat/{table.token_of(0)}/events") as stream:
        body = b"".join(stream.iter_bytes())
    assert body.count(b"event: view") == 1


def test_a_port_in_use_is_refused_before_any_log_or_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    monkeypatch.chdir(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        answer = CliRunner().invoke(cli, ["serve", str(BOURRE), "--port", str(port)])
    assert answer.exit_code == 2, answer.output
    assert f"--port: port {port} on 127.0.0.1 is in use" in answer.output
    assert "/seat/" not in answer.output and not list(tmp_path.glob("*.jsonl"))


def test_a_port_taken_on_one_of_the_addresses_served_is_refused(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # `--host ""` serves on every address, IPv4 and IPv6: a port taken on either one is refused before anything
    # is made (only the first address was tried).
    import socket
    monkeypatch.chdir(tmp_path)
    taken = socket.socket(socket.AF_INET6)
    try:
        taken.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        taken.bind(("::", 0))
    except OSError:
        taken.close()
        pytest.skip("no IPv6 here")
    with taken:
        taken.listen()
        port = taken.getsockname()[1]
        answer = CliRunner().invoke(cli, ["serve", str(BOURRE), "--port", str(port), "--host", ""])
    assert answer.exit_code == 2, answer.output
    assert f"--port: port {port} on every address is in use" in answer.output
    assert not list(tmp_path.glob("*.jsonl"))


@pytest.mark.parametrize("delay", [0.0, 0.01])
def test_a_bot_that_fails_stops_the_table_and_every_page_says_so(delay: float) -> None:
    # (the bot's failure stands for any: the rules failing at a bot's move, a bot's own error, the log)
    table = make_table(BOURRE, players=3, seed=2, humans=[0], bot_delay=delay)
    told: list[BaseException] = []
    table.on_failure = told.append

    def failing(_state: Any) -> Any:
        raise RuntimeError("the bot broke")

    table.bots = [None, failing, failing]

    async def run() -> None:
        await table.start()
        if table.task is not None:
            await table.task

    asyncio.run(run())
    assert table.failure == "the bot broke" and [str(error) for error in told] == ["the bot broke"]
    assert table.message(0)["stopped"] == "the bot broke"
    if table.state.current_player == 0:
        with pytest.raises(RefusedMove, match="the table has stopped: the bot broke"):
            asyncio.run(table.move(0, table.message(0)["legal_actions"][0]))


def test_serve_port_0_names_the_port_it_serves_on() -> None:
    from interpreter.cli_serve import _check_port

    port = _check_port("127.0.0.1", 0)
    assert 0 < port < 65536


def test_a_stopped_web_tables_log_is_said_to_go_on_with_serve(tmp_path: Path) -> None:
    from interpreter import cli_logs

    web, terminal = tmp_path / "web.jsonl", tmp_path / "terminal.jsonl"
    web.write_text('{"type": "match", "humans": [0]}\n{"type": "hand", "hand": 1, "dealer": 0}\n', encoding="utf-8")
    terminal.write_text('{"type": "match"}\n{"type": "hand", "hand": 1, "dealer": 0}\n', encoding="utf-8")
    assert f"`ruledeck serve --resume {web}` goes on with it" in str(cli_logs._kept_content(web))
    assert f"`ruledeck play --resume {terminal}` goes on with it" in str(cli_logs._kept_content(terminal))


def test_the_rules_failing_after_a_persons_move_stop_the_table_and_every_page_says_so() -> None:
    # (fails_early.yaml fails on the first card of an empty pile, in the steps after p0's choice)
    from tests.web_helpers import ROOT

    table = make_table(ROOT / "tests" / "unit" / "playout_files" / "fails_early.yaml", players=2, seed=1,
                       humans=[0, 1])
    told: list[BaseException] = []
    table.on_failure = told.append
    asyncio.run(table.start())
    seat = table.state.current_player
    with pytest.raises(RefusedMove, match="the table has stopped: "):
        asyncio.run(table.move(seat, table.message(seat)["legal_actions"][0]))
    assert table.failure is not None and len(told) == 1
    assert all(table.message(other)["stopped"] == table.failure for other in (0, 1))


def test_a_web_tables_log_resumed_at_the_terminal_keeps_its_persons_seat(tmp_path: Path) -> None:
    # (a bot never takes a person's seat unasked: a log whose people sat at p1 gives p1 to the terminal's person;
    # one with two people asks which seat is to be taken here)
    from interpreter.cli_serve import _table
    log = tmp_path / "served.jsonl"
    table, _, _ = _table(str(BOURRE), 3, 8, (), "1", "random", str(log), None, 0.0)
    with _client(table)[0] as client:
        _play(client, table, seed=8, moves=2)
    made = len(table.state.history)
    result = CliRunner().invoke(cli, ["play", "--resume", str(log), "--bots", "random"], input="q\n")
    assert result.exit_code == 130 and "You are p1." in result.stdout, result.output
    assert len(replay(log).history) == made  # (nothing played for the person)
    both = tmp_path / "both.jsonl"
    table, _, _ = _table(str(BOURRE), 3, 8, (), "0,2", "random", str(both), None, 0.0)
    table.close()
    result = CliRunner().invoke(cli, ["play", "--resume", str(both), "--bots", "random"], input="q\n")
    assert result.exit_code == 2 and "is a web table's match with people at p0, p2" in result.stderr
    result = CliRunner().invoke(cli, ["play", "--resume", str(both), "--bots", "random", "--human", "2"],
                                input="q\n")
    assert result.exit_code == 130 and "You are p2." in result.stdout


def test_a_resumed_table_says_where_its_match_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # The table started from a log said nothing of it: the people did not know it went on at hand 3.
    import uvicorn

    from interpreter.cli_serve import _serve, _table

    class Stopped:  # (a server stopped at once, as by Ctrl-C)
        should_exit = True

        def __init__(self, config: Any) -> None:
            pass

        def run(self) -> None:
            raise KeyboardInterrupt

    monkeypatch.setattr(uvicorn, "Server", Stopped)
    log = tmp_path / "m.jsonl"
    table, _, going_on = _table(str(BOURRE), 3, 12, (), "1", "random", str(log), None, 0.0)
    with _client(table)[0] as client:
        _play(client, table, seed=12, moves=3)
    table.close()
    resumed, _, going_on = _table(None, None, None, (), None, "random", None, str(log), 0.0)
    played = len(resumed.state.history)
    with pytest.raises(SystemExit):
        _serve(resumed, "127.0.0.1", 8123, str(log), going_on)
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"Bourré: 3 players, resumed at hand 1 after {played} actions, a table at http://127.0.0.1:8123/"
