// The page of one seat at a ruledeck web table: it draws the seat's view (sent by the server, which sends
// nothing the seat may not see) and turns the legal moves into buttons. No build step, no library.
"use strict";

const token = decodeURIComponent(location.pathname.split("/")[2] || "");
const base = "/seat/" + encodeURIComponent(token);
const GONE = "This link is no longer a seat at this table: the table was stopped, or started again with new " +
  "links. Use the link printed where the table was started.";
let current = null;
let busy = false;
let gone = false;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value; else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function face(text) {
  // a card's text as this deck draws it (the server sends each suit's sign and colour, and the jokers' names):
  // {shown, colour, joker}, or null for a word that is no card
  const deck = current && current.deck;
  if (!deck) return null;
  if (deck.jokers.includes(text)) return { shown: text, colour: "", joker: true };
  for (const [suit, look] of Object.entries(deck.suits)) {
    if (text.length > suit.length && text.endsWith(suit)) {
      return { shown: text.slice(0, -suit.length) + look.sign, colour: look.colour, joker: false };
    }
  }
  return null;
}

function card(text, extra) {
  const seen = face(text);
  const more = extra ? " " + extra : "";
  if (!seen) return el("span", { class: "card" + more }, text);
  if (seen.joker) return el("span", { class: "card joker" + more, title: "joker " + text }, text);
  return el("span", { class: "card " + (seen.colour || "plain") + more, title: text }, seen.shown);
}

function cardWord(word) {
  // a word of a move's text or a line of the log: a card (or a wild card and what it stands for, `2S=9H`) drawn
  // in colour, with the punctuation a sentence puts around it (`(KS)`, `AH,`) kept as it is
  const [, before, core, after] = word.match(/^([(\["']*)(.*?)([)\]"'.,;:!?]*)$/);
  if (before || after) {
    const inner = cardWord(core);
    if (inner.nodeType === Node.TEXT_NODE) return document.createTextNode(word);
    return el("span", {}, before, inner, after);
  }
  const parts = word.split(/([=+])/);
  if (!parts.some((part) => face(part))) return document.createTextNode(word);
  const span = el("span", {});
  for (const part of parts) {
    const seen = face(part);
    span.append(seen ? el("span", { class: seen.colour === "red" ? "red" : "" }, seen.shown)
                     : document.createTextNode(part));
  }
  return span;
}

function moveText(text, seat) {
  const words = text.split(" ");
  if (words[0] === "p" + seat) words.shift();
  const span = el("span", {});
  words.forEach((word, index) => { if (index) span.append(" "); span.append(cardWord(word)); });
  return span;
}

function cards(list, extra) {
  const row = el("div", { class: "cards" });
  for (const text of list) row.append(card(text, extra));
  return row;
}

function zoneBody(zone) {
  if (zone.melds) {
    if (!zone.melds.length) return el("div", { class: "count" }, "no melds yet");
    const box = el("div", {});
    for (const meld of zone.melds) {
      const row = el("div", { class: "meld", "data-meld": meld.id }, el("span", { class: "id" }, meld.id));
      for (const part of meld.cards) {
        row.append(card(part.card));
        if (part.stands_for) row.append(el("span", { class: "stands", title: "a wild card standing for " + part.stands_for },
                                           "=", cardWord(part.stands_for)));
      }
      if (meld.kind) row.append(el("span", { class: "kind" }, meld.kind));
      box.append(row);
    }
    return box;
  }
  if (zone.cards) {
    if (!zone.cards.length) return el("div", { class: "count" }, "empty");
    if (zone.played_by && zone.played_by.length) {
      const row = el("div", { class: "cards" });
      zone.cards.forEach((text, index) => row.append(
        el("div", { class: "played" }, card(text), el("span", { class: "by" }, zone.played_by[index] || ""))));
      return row;
    }
    return cards(zone.cards);
  }
  const box = el("div", { class: "cards" });
  const count = zone.count === null || zone.count === undefined ? "?" : zone.count;
  if (count === 0 && !(zone.face_up && zone.face_up.length)) return el("div", { class: "count" }, "none");
  box.append(el("span", { class: "card back", title: "face down" }, "🂠"),
             el("span", { class: "count" }, count + (count === 1 ? " card" : " cards") + " face down"));
  if (zone.face_up && zone.face_up.length) {
    box.append(el("span", { class: "count" }, "; face up, seen by all:"));
    for (const text of zone.face_up) box.append(card(text));
  }
  return box;
}

function zoneBox(zone, title) {
  return el("div", { class: "zone", "data-zone": zone.name + (zone.owner ? ":" + zone.owner : "") },
            el("div", { class: "zone-name" }, title || zone.label), zoneBody(zone));
}

function partnerOf(view, seat) {
  // whether `seat` plays on this seat's side (a game of teams: not every seat a side of its own)
  if (seat === view.seat || !view.teams.length || view.teams.length >= view.players) return false;
  return view.teams.some((members) => members.includes(seat) && members.includes(view.seat));
}

function seatTag(view, seat) {
  const kind = view.seats[seat].kind;
  const tags = [kind === "you" ? "you" : kind === "person" ? "a person" : "a bot"];
  if (partnerOf(view, seat)) tags.unshift("your partner");
  if (view.dealer === seat) tags.push("dealer");
  if (view.simultaneous && view.chosen.includes(seat)) tags.push("has chosen");
  if (view.teams.length && view.teams.length < view.players) {
    const team = view.teams.findIndex((members) => members.includes(seat));
    if (team >= 0) tags.push("team t" + team);
  }
  return tags.join(", ");
}

function drawHeader(view) {
  document.getElementById("game").textContent = view.game;
  document.title = view.game + " - p" + view.seat;
  const parts = ["You are p" + view.seat, "hand " + view.hand_number, "dealer p" + view.dealer];
  if (view.phase) parts.push("phase: " + view.phase);
  document.getElementById("status").textContent = parts.join(" · ");
  const turn = document.getElementById("turn");
  turn.className = "turn";
  if (view.stopped) {
    turn.textContent = "The table has stopped: " + view.stopped + " (the match so far is kept in its log).";
  } else if (view.is_over) {
    const best = Math.max(...view.returns);
    const scores = view.returns.map((value, seat) => "p" + seat + " " + (value > 0 ? "+" : "") + value);
    const winners = view.returns.map((v, s) => v === best ? "p" + s : null).filter(Boolean);
    const yours = view.returns[view.seat] === best ? " (you)" : "";
    turn.textContent = "Match over: " + scores.join(", ") + ". Best: " + winners.join(" and ") + yours + ".";
  } else if (view.is_your_turn) {
    turn.className = "turn yours";
    turn.textContent = "Your turn: pick one of your moves below." + together(view);
  } else if (view.current_player === null) {
    turn.textContent = "The cards are being dealt…";
  } else {
    const who = (partnerOf(view, view.current_player) ? "your partner, " : "") +
      (view.waiting_for === "bot" ? "a bot" : "a person");
    turn.textContent = "Waiting for p" + view.current_player + " (" + who + ") to " +
      (view.simultaneous ? "choose" : "play") + "…" + together(view);
  }
  turn.setAttribute("data-your-turn", view.is_your_turn ? "yes" : "no");
  turn.setAttribute("data-over", view.is_over ? "yes" : "no");
}

// In a simultaneous round: the seats choose one after another, none seeing the others' choices until all have chosen.
function together(view) {
  if (!view.simultaneous) return "";
  const chosen = view.chosen.filter((seat) => seat !== view.seat).map((seat) => "p" + seat);
  const mine = view.chosen.includes(view.seat) ? "Your choice is made. " : "";
  return " This round everyone chooses without seeing the others' choices. " + mine +
    (chosen.length ? "Chosen so far: " + chosen.join(", ") + "." : "");
}

function drawZones(view) {
  const middle = document.getElementById("table-zones");
  const seats = document.getElementById("seat-zones");
  const mine = document.getElementById("own-zones");
  middle.replaceChildren();
  seats.replaceChildren();
  mine.replaceChildren();
  for (const zone of view.zones) if (!zone.owner) middle.append(zoneBox(zone));
  if (!middle.children.length) middle.append(el("div", { class: "count" }, "nothing"));
  // In a game whose seats move, the others in their places, clockwise from your left; else by number.
  const place = view.seating.indexOf(view.seat);
  const others = place >= 0 ? view.seating.slice(place + 1).concat(view.seating.slice(0, place))
                            : [...Array(view.players).keys()];
  for (const seat of others) {
    if (seat === view.seat) continue;
    const box = el("div", { class: "seat-box" + (view.current_player === seat ? " current" : ""),
                            "data-seat": "p" + seat },
                   el("div", { class: "seat-title" }, "p" + seat, el("span", { class: "tag" }, seatTag(view, seat))));
    // (the hand zone's label speaks of every seat's, "hands": in a seat's own box it is that seat's hand)
    for (const zone of view.zones) {
      if (zone.owner === "p" + seat) box.append(zoneBox(zone, zone.name === view.hand_zone ? "hand" : zone.label));
    }
    seats.append(box);
  }
  for (const zone of view.zones) {
    if (!zone.owner.startsWith("t")) continue;
    const members = (view.teams[Number(zone.owner.slice(1))] || []).map((s) => "p" + s).join(" and ");
    const title = zone.label + " of " + (zone.is_yours ? "your side" : "the side of " + members) + " (" + zone.owner + ")";
    (zone.is_yours ? mine : seats).append(zoneBox(zone, title));
  }
  for (const zone of view.zones) if (zone.owner === "p" + view.seat) mine.append(zoneBox(zone, "your " + zone.label));
}

// With many moves and some of them laying several cards of the hand at once (a rummy's melds), the moves are
// grouped by kind, a large group folded unless each of its moves names one card at most (a card to play or to
// discard: the hand shows those), and the cards picked in the hand leave only the moves that use all of them.
const MANY = 12;
let picked = [];  // the positions in the hand of the cards picked ("group:index")
let pickedFrom = "";  // the hand and the moves they were picked for: a new hand or turn drops them
let opened = new Set();  // the folded groups opened this turn (kept open when the moves are drawn again)

function moveCards(text) {
  // the cards a move's text names (`meld 2S=9H+7H+8H`: 2S, 7H and 8H; what a wild card stands for is no card of it)
  const found = [];
  for (const word of text.split(" ")) {
    for (const part of word.split("+")) {
      const named = part.split("=")[0];
      if (face(named)) found.push(named);
    }
  }
  return found;
}

function usesAll(text, cardsPicked) {
  const left = moveCards(text);
  for (const pickedCard of cardsPicked) {
    const index = left.indexOf(pickedCard);
    if (index < 0) return false;
    left.splice(index, 1);
  }
  return true;
}

function handCards(view) {
  return new Set((view.hand || []).flatMap((group) => group.cards));
}

function narrows(view) {
  // whether this seat's moves are many and some lay two cards of the hand or more at once: then the cards of the
  // hand that the moves name may be picked to narrow them
  if (!view.is_your_turn || view.legal_actions.length <= MANY) return false;
  const held = handCards(view);
  return view.legal_actions.some((text) => moveCards(text).filter((named) => held.has(named)).length >= 2);
}

function pickable(view) {
  // the cards of the hand that some move names (the others narrow nothing)
  const named = new Set();
  for (const text of view.legal_actions) for (const card of moveCards(text)) named.add(card);
  return named;
}

function pickedCards(view) {
  const found = [];
  for (const place of picked) {
    const [group, index] = place.split(":").map(Number);
    const text = view.hand && view.hand[group] && view.hand[group].cards[index];
    if (text !== undefined) found.push(text);
  }
  return found;
}

function redrawPicks(focus) {
  drawHand(current);
  drawActions(current);
  const target = focus && document.querySelector(focus);
  if (target) target.focus();  // (the card or line the keyboard was on, drawn again)
}

function togglePick(place) {
  picked = picked.includes(place) ? picked.filter((other) => other !== place) : [...picked, place];
  redrawPicks('#hand [data-place="' + place + '"]');
}

function drawHand(view) {
  const hand = document.getElementById("hand");
  hand.replaceChildren();
  document.getElementById("hand-title").textContent = "Your hand (p" + view.seat + ")";
  if (!view.hand) return;
  const held = JSON.stringify([view.hand, view.moves_made, view.is_your_turn]);
  if (held !== pickedFrom) { picked = []; opened = new Set(); pickedFrom = held; }
  const named = narrows(view) ? pickable(view) : new Set();
  let total = 0;
  const faceUp = new Set(view.hand_face_up || []);  // cards of the hand every seat sees (a turned-up card)
  view.hand.forEach((group, groupIndex) => {
    const row = el("div", { class: "group" });
    group.cards.forEach((text, index) => {
      const place = groupIndex + ":" + index;
      const isPicked = named.has(text) && picked.includes(place);
      const shown = card(text, (faceUp.has(text) ? "face-up" : "") + (isPicked ? " picked" : ""));
      if (named.has(text)) {  // (a card to pick, by click or by the keyboard)
        shown.setAttribute("role", "button");
        shown.setAttribute("tabindex", "0");
        shown.setAttribute("aria-pressed", isPicked ? "true" : "false");
        shown.setAttribute("data-place", place);
        shown.setAttribute("data-card", text);
        shown.addEventListener("click", () => togglePick(place));
        shown.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); togglePick(place); }
        });
      }
      row.append(shown);
    });
    total += group.cards.length;
    hand.append(row);
  });
  if (!total) hand.append(el("span", { class: "count" }, "no cards"));
  if (faceUp.size) hand.append(el("span", { class: "count" }, "face up, seen by all: ",
                                  ...[...faceUp].map((text) => cardWord(text))));
}

function moveButton(text, seat) {
  const button = el("button", { type: "button", "data-action": text }, moveText(text, seat));
  button.addEventListener("click", () => move(text));
  return button;
}

function moveKind(text, seat) {
  // what a move's group is called: its kind (`meld`, `discard`), a choice by its name (`choose bid`)
  const words = text.split(" ");
  if (words[0] === "p" + seat) words.shift();
  return words[0] === "choose" && words.length > 1 ? words.slice(0, 2).join(" ") : words[0];
}

function drawActions(view) {
  const box = document.getElementById("actions");
  box.replaceChildren();
  if (!view.is_your_turn || !view.legal_actions.length) {
    box.append(el("span", { class: "none" }, view.is_over ? "The match is over." : "Not your turn."));
    return;
  }
  if (!narrows(view)) {
    for (const text of view.legal_actions) box.append(moveButton(text, view.seat));
    return;
  }
  const named = pickable(view);
  const chosen = pickedCards(view).filter((text) => named.has(text));
  const shown = view.legal_actions.filter((text) => usesAll(text, chosen));
  const line = el("div", { class: "pick", id: "pick", tabindex: "-1" });
  if (!chosen.length) {
    line.append("Pick cards in your hand to see only the moves that use them.");
  } else {
    const cardsNamed = el("span", {});
    chosen.forEach((text, index) => { if (index) cardsNamed.append(" "); cardsNamed.append(cardWord(text)); });
    if (shown.length) line.append(`${shown.length} of ${view.legal_actions.length} moves use `, cardsNamed, ". ");
    else line.append("No move uses ", cardsNamed, chosen.length > 1 ? " together. " : ". ");
    const clear = el("button", { type: "button", class: "clear" }, "clear");
    clear.addEventListener("click", () => { picked = []; redrawPicks("#pick"); });
    line.append(clear);
  }
  box.append(line);
  const groups = new Map();
  for (const text of shown) {
    const kind = moveKind(text, view.seat);
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(text);
  }
  for (const [kind, texts] of groups) {
    const moves = el("div", { class: "group-moves" }, ...texts.map((text) => moveButton(text, view.seat)));
    const count = texts.length + (texts.length === 1 ? " move" : " moves");
    const several = texts.some((text) => moveCards(text).length > 1);  // (moves of one card each: the hand shows them)
    if (texts.length > MANY && several && !chosen.length) {  // (folded: open it, or pick cards to narrow it)
      const group = el("details", { class: "group", "data-kind": kind },
                       el("summary", {}, kind + ": " + count + " (open, or pick cards to see fewer)"), moves);
      group.open = opened.has(kind);
      group.addEventListener("toggle", () => { if (group.open) opened.add(kind); else opened.delete(kind); });
      box.append(group);
    } else {
      box.append(el("div", { class: "group", "data-kind": kind }, el("div", { class: "group-title" }, kind + ": " + count), moves));
    }
  }
}

function drawValues(view) {
  const table = document.getElementById("values");
  table.replaceChildren();
  if (view.standings) {
    table.append(el("tr", {}, el("th", {}, "match so far"),
      el("td", {}, view.standings.map((v, s) => "p" + s + " " + v).join(" · "))));
  }
  for (const variable of view.variables) {
    let text = variable.text;
    if (Array.isArray(text)) {
      const who = variable.per === "team" ? "t" : "p";
      text = text.map((v, i) => who + i + " " + (v === null ? "?" : v)).join(" · ");
    }
    table.append(el("tr", { "data-variable": variable.name }, el("th", {}, variable.label), el("td", {}, text)));
  }
}

function drawRecent(view) {
  const list = document.getElementById("recent");
  list.replaceChildren();
  for (const line of view.recent) list.append(el("li", {}, moveText(line, -1)));
  if (!view.recent.length) list.append(el("li", { class: "count none-yet" }, "none yet this hand"));
  // How the last hand ended (its last moves and the ruleset's settlement), until this seat moves in the new one
  const ended = document.getElementById("ended");
  const lines = document.getElementById("ended-lines");
  lines.replaceChildren();
  for (const line of view.previous_hand || []) lines.append(el("li", {}, moveText(line, -1)));
  ended.hidden = !lines.children.length;
  document.getElementById("ended-title").textContent = "How hand " + (view.hand_number - 1) + " ended";
}

function drawHelp(view) {
  // the help's sentences about tricks and melds, only in a game that has them
  document.getElementById("help-trick").hidden = !view.zones.some((zone) => zone.is_trick);
  document.getElementById("help-melds").hidden = !view.zones.some((zone) => zone.melds);
}

function draw(view) {
  if (current && view.version < current.version) return;  // an answer overtaken by a newer view
  if (current && view.version > current.version) showError("");  // (a refusal is of the table as it was)
  current = view;
  drawHeader(view);
  drawZones(view);
  drawHand(view);
  drawActions(view);
  drawValues(view);
  drawRecent(view);
  drawHelp(view);
  document.body.setAttribute("data-version", view.version);
}

function showError(text, refused = true) {
  // a move refused (with why), or another failure (`refused` false); beside the moves, where the click was made,
  // and scrolled into sight
  const box = document.getElementById("error");
  box.hidden = !text;
  box.textContent = text ? (refused ? "Not allowed: " : "") + text : "";
  if (text && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
}

function linkGone() {
  gone = true;
  document.getElementById("status").textContent = GONE;
  document.getElementById("turn").textContent = "";
  document.getElementById("actions").replaceChildren();
}

async function move(text) {
  if (busy || gone) return;
  busy = true;
  try {
    let response;
    try {
      // (with the count of this seat's moves the page showed: a click sent twice, or from a page left behind,
      // is refused rather than made at the next turn)
      response = await fetch(base + "/move", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action: text, moves_made: current ? current.moves_made : null }),
      });
    } catch (error) {  // (the server cannot be reached: fetch itself fails)
      showError("The table cannot be reached: its server may have stopped. This page follows the table again " +
                "if it comes back; a table started again prints new links.", false);
      return;
    }
    if (response.status === 404) { linkGone(); return; }
    try {
      const answer = await response.json();
      if (answer.view) draw(answer.view);
      showError(response.ok ? "" : answer.error);
    } catch (error) {
      showError("This page failed to show the answer (" + error + "): reload it.", false);
    }
  } finally {
    busy = false;
  }
}

function follow() {
  const source = new EventSource(base + "/events");
  source.addEventListener("view", (event) => {
    draw(JSON.parse(event.data));
  });
  source.onerror = async () => {
    if (gone) return;
    document.getElementById("status").textContent = "Connection lost; trying again…";
    try {  // (a table started again answers 404 to this link: say so, rather than trying for ever)
      const response = await fetch(base + "/view");
      if (response.status === 404) { source.close(); linkGone(); }
    } catch (error) { /* the server is away: the stream tries again by itself */ }
  };
}

follow();
