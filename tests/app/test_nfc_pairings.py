"""NFC pairings learned at the table survive a restart (issue 14, "The Pi kiosk").

The kiosk used to build its NFC link with an empty card map and never read or saved
``cards.toml``: every pairing the players made was gone after a restart. Now an unknown tag
offers the cards to pair it with, the chosen pairing is saved at once, and the next start
reads it back; a broken pairings file is reported and never overwritten.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.controller import TableController
from companion.app.journal_shelf import JournalShelf
from companion.app.nfc_link import NfcLink, load_pairings
from firmware_bridge.messages import LinkStatus, TagPresent

UID = "04A1B2C3D4E5F6"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableController]:
    controller = TableController(JournalShelf(tmp_path / "journals"))
    yield controller
    controller.close_game()


def _kiosk_link(table: TableController, path: Path) -> NfcLink:
    cards, save_path, problem = load_pairings(path)
    assert problem == ""
    return NfcLink(table, lambda fn, *args: fn(*args), cards=cards, cards_path=save_path)


def test_a_pairing_learned_at_the_table_is_saved_and_known_after_a_restart(
        table: TableController, tmp_path: Path) -> None:
    path = tmp_path / "config" / "infinite-table" / "cards.toml"
    table.start("infinifield", "quickstart", ["Ann", "Ben"], seed=1)
    link = _kiosk_link(table, path)
    result = link.handle(TagPresent(UID))
    assert result is not None and result.card is None
    assert "W1" in result.choices, "an unknown tag offers the cards it may stand for"
    link.choose("W1")
    assert table.session is not None and table.session.history == ["start Ben W1"]
    assert table.session.record[-1].source == "nfc"
    assert f'{UID} = "W1"' in path.read_text(encoding="utf-8")

    table.close_game()                                   # the kiosk restarts
    table.start("infinifield", "quickstart", ["Ann", "Ben"], seed=1)
    restarted = _kiosk_link(table, path)
    restarted.handle(TagPresent(UID))
    assert table.session.history == ["start Ben W1"], "the tag is known without pairing again"


def test_a_broken_pairings_file_is_reported_and_never_overwritten(
        table: TableController, tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    broken = '[infinifield]\n04A1B2C3 = "W1"\n05 = \n'
    path.write_text(broken, encoding="utf-8")
    cards, save_path, problem = load_pairings(path)
    assert save_path is None and str(path) in problem and "left as it is" in problem
    table.start("infinifield", "quickstart", ["Ann", "Ben"], seed=1)
    link = NfcLink(table, lambda fn, *args: fn(*args), cards=cards, cards_path=save_path)
    link.handle(TagPresent(UID))
    link.choose("W1")                                    # paired for this run only
    assert path.read_text(encoding="utf-8") == broken


def test_the_bridge_link_status_reaches_the_status_light_callback(
        table: TableController) -> None:
    seen: list[str] = []
    link = NfcLink(table, lambda fn, *args: fn(*args), on_link=lambda s: seen.append(s.state))
    link.on_message(LinkStatus("connected", "/dev/infinite-nfc"))
    link.on_message(LinkStatus("lost", "/dev/infinite-nfc", "unplugged"))
    assert seen == ["connected", "lost"] and link.link is not None
    assert link.link.detail == "unplugged"
