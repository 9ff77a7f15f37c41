"""The web table in a real browser: Debian's chromium, headless, driven by Selenium; a whole hand of Bourré and a
turn of Burraco played by clicking, a refused move shown, and screenshots kept (in the test's folder, and in
$RULEDECK_SCREENSHOTS when it is set). Skipped, saying why, where the browser or the web extra is missing."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REQUIRED = os.environ.get("RULEDECK_REQUIRE_BROWSER") == "1"  # set by .ci/run: there a missing piece fails


def missing(reason: str) -> None:
    """Skip, saying why; or fail, where the browser test is required."""
    if REQUIRED:
        pytest.fail(f"the browser test cannot run: {reason}")
    pytest.skip(reason, allow_module_level=True)


try:
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as error:
    missing(f"{error.name} is not installed (pip install 'ruledeck[web,browser-test]')")

from interpreter import load_ruleset  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402
from tests.web_helpers import BOURRE, BURRACO, HEARTS, live_server, make_table  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1400")


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        missing("Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def keep_screenshot(driver: Any, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    assert driver.save_screenshot(str(path)), "no screenshot"
    folder = os.environ.get("RULEDECK_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / name)
    return path


def wait_for_turn(driver: Any) -> bool:
    """Wait until it is the seat's turn (True) or the match is over (False)."""
    turn = driver.find_element(By.ID, "turn")
    WebDriverWait(driver, 30).until(
        lambda _: "yes" in (turn.get_attribute("data-your-turn"), turn.get_attribute("data-over")))
    return turn.get_attribute("data-over") != "yes"


def click(driver: Any, button: Any) -> None:
    """Click a move's button and wait for the page to draw the table after it."""
    before = driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    button.click()
    WebDriverWait(driver, 30).until(
        lambda _: driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") != before)


def buttons(driver: Any) -> list[Any]:
    return driver.find_elements(By.CSS_SELECTOR, "#actions button[data-action]")


def test_a_whole_hand_of_bourre_is_played_by_clicking(browser: Any, tmp_path: Path) -> None:
    table = make_table(BOURRE, players=3, seed=12, humans=[0], params={"hands": 1})
    choose = random.Random(12)
    with live_server(create_app(table)) as base:
        browser.get(f"{base}/seat/{table.token_of(0)}")
        assert wait_for_turn(browser)
        assert browser.find_element(By.ID, "game").text == table.state.game.name
        hand = browser.find_elements(By.CSS_SELECTOR, "#hand .card")
        assert len(hand) == 5 and any("red" in card.get_attribute("class") for card in
                                      browser.find_elements(By.CSS_SELECTOR, ".card"))
        # (a card in a line of the log is drawn as a card, the punctuation after it kept: `turns up J♥:`)
        recent = browser.find_element(By.ID, "recent")
        assert "p0 turns up J♥: trumps are H" in recent.text.splitlines()
        assert recent.find_elements(By.CSS_SELECTOR, "li span.red")
        browser.execute_script("move('choose nonsense')")  # a move the rules do not know, as a stale click
        error = browser.find_element(By.ID, "error")
        WebDriverWait(browser, 10).until(lambda _: error.is_displayed())
        assert error.text.startswith("Not allowed: ")
        clicks = 0
        shot = False
        while wait_for_turn(browser):
            if not shot and browser.find_elements(By.CSS_SELECTOR, ".played .by"):
                keep_screenshot(browser, tmp_path, "bourre-trick.png")
                shot = True
            options = buttons(browser)
            shown = [button.get_attribute("data-action") for button in options]
            legal = [table.state.action_text(action) for action in table.state.legal_actions()]
            assert sorted(shown) == sorted(legal) and len(shown) == len(legal)
            assert shown == table.message(0)["legal_actions"]  # (the card moves as the hand is shown)
            click(browser, choose.choice(options))
            clicks += 1
        assert table.state.is_terminal and clicks >= 5
        assert "Match over" in browser.find_element(By.ID, "turn").text
        keep_screenshot(browser, tmp_path, "bourre-over.png")


def test_a_turn_of_burraco_is_played_by_clicking(browser: Any, tmp_path: Path) -> None:
    table = make_table(BURRACO, players=4, seed=13, humans=[0])
    with live_server(create_app(table)) as base:
        browser.get(f"{base}/seat/{table.token_of(0)}")
        assert wait_for_turn(browser)
        hand = len(browser.find_elements(By.CSS_SELECTOR, "#hand .card"))
        # (the help speaks of melds in a rummy, and not of tricks)
        assert browser.find_element(By.ID, "help-melds").get_attribute("hidden") is None
        assert browser.find_element(By.ID, "help-trick").get_attribute("hidden") is not None
        draw = [button for button in buttons(browser) if " draw " in button.get_attribute("data-action")]
        assert draw, "no draw among the first moves"
        click(browser, draw[0])
        assert len(browser.find_elements(By.CSS_SELECTOR, "#hand .card")) > hand
        made = len(table.state.history)
        for _ in range(40):  # melds and additions while there are any, then the discard that ends the turn
            texts = [button.get_attribute("data-action") for button in buttons(browser)]
            melds = [index for index, text in enumerate(texts) if " meld " in text or " add " in text]
            if melds:
                if not buttons(browser)[melds[0]].is_displayed():  # (folded among many: its cards picked first)
                    pick(browser, move_cards(table.state.game.deck.card_ids, texts[melds[0]]))
                    texts = [button.get_attribute("data-action") for button in buttons(browser)]
                    melds = [index for index, text in enumerate(texts) if " meld " in text or " add " in text]
                click(browser, buttons(browser)[melds[0]])
                continue
            keep_screenshot(browser, tmp_path, "burraco-turn.png")
            discards = [index for index, text in enumerate(texts) if " discard " in text]
            click(browser, buttons(browser)[discards[0]])
            break
        else:
            pytest.fail("the turn did not end")
        moves = [table.state.action_text(action) for action in table.state.history[made:]]
        assert any(move.startswith("p0 discard") for move in moves)
        assert browser.find_elements(By.CSS_SELECTOR, "#recent li")
        keep_screenshot(browser, tmp_path, "burraco-after.png")


def move_cards(card_ids: Any, text: str) -> list[str]:
    """The cards a move's text names, as the page reads them: `meld 2S=9H+7H+8H` names 2S, 7H and 8H."""
    return [part.split("=")[0] for word in text.split()[1:] for part in word.split("+")
            if part.split("=")[0] in card_ids]


def pick(driver: Any, cards: list[str]) -> None:
    """Pick these cards in the hand (one card of the hand for each, as many times as named)."""
    for text in cards:
        free = [card for card in driver.find_elements(By.CSS_SELECTOR, f'#hand .card[data-card="{text}"]')
                if card.get_attribute("aria-pressed") == "false"]
        assert free, f"no {text} left to pick in the hand"
        before = len(driver.find_elements(By.CSS_SELECTOR, "#hand .card.picked"))
        free[0].click()  # (the hand is drawn again with the card picked)
        WebDriverWait(driver, 10).until(
            lambda _, before=before: len(driver.find_elements(By.CSS_SELECTOR, "#hand .card.picked")) == before + 1)


def contains(held: list[str], wanted: list[str]) -> bool:
    left = list(held)
    for text in wanted:
        if text not in left:
            return False
        left.remove(text)
    return True


def test_a_rummy_turn_s_many_moves_are_narrowed_by_the_cards_picked_in_the_hand(browser: Any, tmp_path: Path) -> None:
    """With more moves than a person can read and melds among them (a Burraco turn: 42 moves, 31 of them new
    melds), the moves are grouped by kind, the melds folded (the discards, a card each, are not: the hand shows
    them), and the cards picked in the hand, by click or by the keyboard, leave only the moves that use all of
    them: picking a meld's cards finds it, and makes it."""
    table = make_table(BURRACO, players=4, seed=5, humans=[0])
    card_ids = table.state.game.deck.card_ids
    with live_server(create_app(table)) as base:
        browser.get(f"{base}/seat/{table.token_of(0)}")
        assert wait_for_turn(browser)
        click(browser, next(button for button in buttons(browser) if " draw " in button.get_attribute("data-action")))
        legal = [table.state.action_text(action) for action in table.state.legal_actions()]
        melds = [text for text in legal if " meld " in text]
        assert len(melds) > 12, "too few melds after the draw to fold them"
        assert browser.find_element(By.ID, "pick").text.startswith("Pick cards in your hand")
        kinds = {group.get_attribute("data-kind"): group for group in
                 browser.find_elements(By.CSS_SELECTOR, "#actions .group")}
        assert kinds["meld"].tag_name == "details" and kinds["discard"].tag_name == "div"
        assert sorted(button.get_attribute("data-action") for button in buttons(browser)) == sorted(legal)
        shown = {button.get_attribute("data-action") for button in buttons(browser) if button.is_displayed()}
        assert not shown & set(melds) and {text for text in legal if " discard " in text} <= shown
        keep_screenshot(browser, tmp_path, "burraco-moves.png")
        kinds["meld"].find_element(By.TAG_NAME, "summary").click()  # (a folded group opens, and stays open)
        assert all(button.is_displayed() for button in kinds["meld"].find_elements(By.TAG_NAME, "button"))
        wanted = next(text for text in melds if len(move_cards(card_ids, text)) >= 3)
        cards = move_cards(card_ids, wanted)
        first = browser.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{cards[0]}"]')
        place = first.get_attribute("data-place")
        first.send_keys(Keys.ENTER)  # (picked by the keyboard: the card keeps the focus)
        WebDriverWait(browser, 10).until(lambda _: browser.find_elements(By.CSS_SELECTOR, "#hand .card.picked"))
        focused = browser.switch_to.active_element
        assert focused.get_attribute("data-place") == place and focused.get_attribute("aria-pressed") == "true"
        pick(browser, cards[1:])
        shown_now = [button.get_attribute("data-action") for button in buttons(browser) if button.is_displayed()]
        assert wanted in shown_now
        assert sorted(shown_now) == sorted(text for text in legal if contains(move_cards(card_ids, text), cards))
        assert f"{len(shown_now)} of {len(legal)} moves use" in browser.find_element(By.ID, "pick").text
        assert len(browser.find_elements(By.CSS_SELECTOR, "#hand .card.picked")) == len(cards)
        keep_screenshot(browser, tmp_path, "burraco-picked.png")
        made = len(table.state.history)
        click(browser, next(button for button in buttons(browser) if button.get_attribute("data-action") == wanted))
        assert [table.state.action_text(action) for action in table.state.history[made:]] == [wanted]
        assert not browser.find_elements(By.CSS_SELECTOR, "#hand .card.picked")  # (a new turn's moves: none picked)


def test_a_trick_game_s_thirteen_cards_stay_one_row_of_buttons(browser: Any, tmp_path: Path) -> None:
    """A lead from thirteen cards is many moves, but each is one card of the hand: they stay a row of buttons,
    none folded, and the hand is not offered for picking."""
    table = make_table(HEARTS, players=4, seed=3, humans=[0])
    with live_server(create_app(table)) as base:
        browser.get(f"{base}/seat/{table.token_of(0)}")
        assert wait_for_turn(browser)
        legal = [table.state.action_text(action) for action in table.state.legal_actions()]
        assert len(legal) > 12
        assert [button.get_attribute("data-action") for button in buttons(browser)] == table.message(0)["legal_actions"]
        assert all(button.is_displayed() for button in buttons(browser))
        assert not browser.find_elements(By.CSS_SELECTOR, "#pick, #actions .group, #hand .card[role=button]")


def test_a_simultaneous_round_says_who_has_chosen_unseen(browser: Any, tmp_path: Path) -> None:
    """Bourré's simultaneous declaration (BR-V4): the seat that chooses last in the round is told that everyone
    chooses without seeing the others' choices, and which seats have chosen; their choices are not shown."""
    variant = BOURRE.parent / "variants" / "simultaneous_declaration.yaml"
    dealer = load_ruleset(variant).new_initial_state(seed=5, players=3).values["dealer"]
    last = (dealer + 3) % 3  # the round goes from the dealer's left, so the dealer chooses last
    table = make_table(variant, players=3, seed=5, humans=[last])
    with live_server(create_app(table)) as base:
        browser.get(f"{base}/seat/{table.token_of(last)}")
        assert wait_for_turn(browser)
        assert table.message(last)["simultaneous"] and sorted(table.message(last)["chosen"]) == \
            sorted(seat for seat in range(3) if seat != last)
        turn = browser.find_element(By.ID, "turn").text
        assert "everyone chooses without seeing the others' choices" in turn
        others = [seat for seat in range(3) if seat != last]
        assert "Chosen so far: " + ", ".join(f"p{seat}" for seat in others) + "." in turn
        for seat in others:
            tag = browser.find_element(By.CSS_SELECTOR, f'.seat-box[data-seat="p{seat}"] .tag').text
            assert "has chosen" in tag
        recent = " ".join(item.text for item in browser.find_elements(By.CSS_SELECTOR, "#recent li"))
        assert not any(f"p{seat} choose play" in recent or f"p{seat} choose pass" in recent for seat in others)
        keep_screenshot(browser, tmp_path, "bourre-simultaneous.png")
        while wait_for_turn(browser) and table.message(last)["simultaneous"]:  # (to the first turn of play)
            click(browser, buttons(browser)[0])
        if not table.state.is_terminal:
            assert "everyone chooses" not in browser.find_element(By.ID, "turn").text


def test_how_the_last_hand_ended_is_shown_at_the_next_hands_first_turn(browser: Any, tmp_path: Path) -> None:
    """The hand's last cards and the settlement's lines (BR-32, BR-34) stay on the page until the seat's first
    move of the next hand: a person saw the next deal at once, the end of the hand in the log alone. The help
    speaks of tricks in a trick game, of melds in a rummy, and of neither elsewhere."""
    table = make_table(BOURRE, players=3, seed=12, humans=[0], params={"hands": 2})
    choose = random.Random(5)
    with live_server(create_app(table)) as base:
        browser.get(f"{base}/seat/{table.token_of(0)}")
        ended = browser.find_element(By.ID, "ended")
        assert wait_for_turn(browser)  # (the help is set as the page draws the table)
        assert browser.find_element(By.ID, "help-melds").get_attribute("hidden") is not None  # (no melds here)
        assert browser.find_element(By.ID, "help-trick").get_attribute("hidden") is None
        while wait_for_turn(browser) and table.state.values["hand_number"] == 1:
            assert not ended.is_displayed()
            click(browser, choose.choice(buttons(browser)))
        assert wait_for_turn(browser) and table.state.values["hand_number"] == 2
        assert ended.is_displayed()
        assert browser.find_element(By.ID, "ended-title").text.lower() == "how hand 1 ended"
        lines = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#ended-lines li")]
        settled = [event["text"] for event in table.state.events if event["type"] == "log"]
        assert lines and any("wins the trick" in line for line in lines)
        assert any("pot" in line.lower() for line in lines) and any(line in settled for line in lines)
        keep_screenshot(browser, tmp_path, "bourre-hand-ended.png")
        click(browser, buttons(browser)[0])
        assert not ended.is_displayed()
