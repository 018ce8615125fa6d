// The room page: every board from /api/boards, polled each second.  Each board keeps its
// own elements: a poll changes only what changed (a moved board's diagram and move list,
// a clock, a connection line), so a screen reader's place is kept.  What happened is said
// once, per board, with its colour and move number, in the page's language, in a polite
// live region.  Data that is not live (the relay or the broker lost, a board's broadcast
// or device gone) is said to be old, and its clocks stop.
'use strict';

var WORDS = {
  en: {
    title: 'The room', intro: 'Every board\'s game, live.', pgn: 'The round as PGN',
    news: 'Latest moves', boards: 'Boards', white: 'White', black: 'Black',
    board: 'Board {b}', moveby: '{board}: move {n}, {c}: {san}', result: '{board}: result {r}',
    back: '{board}: the game was set back to {p} half-moves', moves: 'Moves ({n})',
    position: 'Position', pieces: 'Position: {p}', none: 'none',
    names: { K: 'King', Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', P: 'Pawn' },
    live: 'Live, updated {a} ago', offline: 'Board offline for {a}',
    nodevice: 'The board\'s device is not answering; last update {a} ago',
    nobroker: 'No live data: the relay lost the MQTT broker at {t}; clocks stopped',
    norelay: 'No live data: the relay has not answered since {t}; clocks stopped', since: '{a} ago',
    count: '{n} boards', count1: '1 board', delayed: 'Shown {d} behind the boards',
    arbiter: 'The arbiter\'s view, as it happens', running: 'running', stale: 'not live',
    resultline: 'Result {r}', noboards: 'No board yet',
    boardoff: '{board}: board offline', boarddev: '{board}: the device is not answering',
    boardback: '{board}: live again', unknown: 'unknown', s: '{n} s', m: '{n} min', h: '{n} h',
    pause: 'Pause the news', follow: 'Follow {board} in the news',
    newsall: 'News from every board. Tick “Follow” on a board to hear only the boards you choose.',
    newssome: 'News from {list} only.', newspaused: 'The news is paused: nothing new is announced, the boards go on.'
  },
  de: {
    title: 'Der Turniersaal', intro: 'Die Partie jedes Bretts, live.', pgn: 'Die Runde als PGN',
    news: 'Letzte Züge', boards: 'Bretter', white: 'Weiß', black: 'Schwarz',
    board: 'Brett {b}', moveby: '{board}: Zug {n}, {c}: {san}', result: '{board}: Ergebnis {r}',
    back: '{board}: Partie auf {p} Halbzüge zurückgesetzt', moves: 'Züge ({n})',
    position: 'Stellung', pieces: 'Stellung: {p}', none: 'keine',
    names: { K: 'König', Q: 'Dame', R: 'Turm', B: 'Läufer', N: 'Springer', P: 'Bauer' },
    live: 'Live, aktualisiert vor {a}', offline: 'Brett seit {a} nicht verbunden',
    nodevice: 'Das Gerät des Bretts antwortet nicht; zuletzt aktualisiert vor {a}',
    nobroker: 'Keine Live-Daten: das Relais hat den MQTT-Broker um {t} verloren; Uhren angehalten',
    norelay: 'Keine Live-Daten: das Relais antwortet seit {t} nicht; Uhren angehalten', since: 'vor {a}',
    count: '{n} Bretter', count1: '1 Brett', delayed: 'Gezeigt mit {d} Verzögerung',
    arbiter: 'Ansicht des Schiedsrichters, ohne Verzögerung', running: 'läuft', stale: 'nicht live',
    resultline: 'Ergebnis {r}', noboards: 'Noch kein Brett',
    boardoff: '{board}: Brett nicht verbunden', boarddev: '{board}: das Gerät antwortet nicht',
    boardback: '{board}: wieder live', unknown: 'unbekannt', s: '{n} s', m: '{n} min', h: '{n} h',
    pause: 'Neuigkeiten anhalten', follow: '{board} in den Neuigkeiten verfolgen',
    newsall: 'Neuigkeiten von jedem Brett. „Verfolgen“ bei einem Brett ankreuzen, um nur die gewählten Bretter zu hören.',
    newssome: 'Neuigkeiten nur von {list}.', newspaused: 'Die Neuigkeiten sind angehalten: nichts Neues wird angesagt, die Bretter laufen weiter.'
  },
  sv: {
    title: 'Spellokalen', intro: 'Varje bords parti, direkt.', pgn: 'Ronden som PGN',
    news: 'Senaste dragen', boards: 'Bord', white: 'Vit', black: 'Svart',
    board: 'Bord {b}', moveby: '{board}: drag {n}, {c}: {san}', result: '{board}: resultat {r}',
    back: '{board}: partiet återställt till {p} halvdrag', moves: 'Drag ({n})',
    position: 'Ställning', pieces: 'Ställning: {p}', none: 'inga',
    names: { K: 'Kung', Q: 'Dam', R: 'Torn', B: 'Löpare', N: 'Springare', P: 'Bonde' },
    live: 'Direkt, uppdaterat för {a} sedan', offline: 'Bordet är frånkopplat sedan {a}',
    nodevice: 'Bordets enhet svarar inte; senast uppdaterat för {a} sedan',
    nobroker: 'Inga direktdata: reläet tappade MQTT-mäklaren kl. {t}; klockorna stoppade',
    norelay: 'Inga direktdata: reläet har inte svarat sedan {t}; klockorna stoppade', since: 'för {a} sedan',
    count: '{n} bord', count1: '1 bord', delayed: 'Visas {d} efter borden',
    arbiter: 'Domarens vy, utan fördröjning', running: 'går', stale: 'inte direkt',
    resultline: 'Resultat {r}', noboards: 'Inget bord ännu',
    boardoff: '{board}: bordet är frånkopplat', boarddev: '{board}: enheten svarar inte',
    boardback: '{board}: direkt igen', unknown: 'okänt', s: '{n} s', m: '{n} min', h: '{n} h',
    pause: 'Pausa nyheterna', follow: 'Följ {board} i nyheterna',
    newsall: 'Nyheter från alla bord. Kryssa i ”Följ” vid ett bord för att bara höra de bord du väljer.',
    newssome: 'Nyheter bara från {list}.', newspaused: 'Nyheterna är pausade: inget nytt läses upp, borden fortsätter.'
  },
  nl: {
    title: 'De speelzaal', intro: 'De partij van elk bord, live.', pgn: 'De ronde als PGN',
    news: 'Laatste zetten', boards: 'Borden', white: 'Wit', black: 'Zwart',
    board: 'Bord {b}', moveby: '{board}: zet {n}, {c}: {san}', result: '{board}: uitslag {r}',
    back: '{board}: partij teruggezet naar {p} halve zetten', moves: 'Zetten ({n})',
    position: 'Stelling', pieces: 'Stelling: {p}', none: 'geen',
    names: { K: 'Koning', Q: 'Dame', R: 'Toren', B: 'Loper', N: 'Paard', P: 'Pion' },
    live: 'Live, {a} geleden bijgewerkt', offline: 'Bord sinds {a} niet verbonden',
    nodevice: 'Het apparaat van het bord antwoordt niet; {a} geleden bijgewerkt',
    nobroker: 'Geen live gegevens: de relay is de MQTT-broker om {t} verloren; klokken stilgezet',
    norelay: 'Geen live gegevens: de relay antwoordt sinds {t} niet; klokken stilgezet', since: '{a} geleden',
    count: '{n} borden', count1: '1 bord', delayed: 'Getoond met {d} vertraging',
    arbiter: 'Weergave van de arbiter, zonder vertraging', running: 'loopt', stale: 'niet live',
    resultline: 'Uitslag {r}', noboards: 'Nog geen bord',
    boardoff: '{board}: bord niet verbonden', boarddev: '{board}: het apparaat antwoordt niet',
    boardback: '{board}: weer live', unknown: 'onbekend', s: '{n} s', m: '{n} min', h: '{n} u',
    pause: 'Nieuws pauzeren', follow: '{board} volgen in het nieuws',
    newsall: 'Nieuws van elk bord. Vink „Volgen” aan bij een bord om alleen de gekozen borden te horen.',
    newssome: 'Nieuws alleen van {list}.', newspaused: 'Het nieuws is gepauzeerd: er wordt niets nieuws voorgelezen, de borden lopen door.'
  }
};

var lang = 'en';
var room = null;        // the last /api/boards
var fetchedAt = 0;      // Date.now() of the relay's building it
var answeredAt = 0;     // Date.now() when the relay last answered
var relayLost = false;  // the last poll failed
var shown = {};         // name -> the board's elements and what they show
// The news (WCAG 2.2.2): paused, or only the boards followed (their names; none: every board).
var newsPaused = false;
var following = [];

function t(key, args) {
  var s = (WORDS[lang] && WORDS[lang][key]) || WORDS.en[key] || key;
  for (var k in args || {}) s = s.split('{' + k + '}').join(args[k]);
  return s;
}

function pickLanguage() {
  var q = /[?&]lang=([a-z]{2})/.exec(location.search);
  var wanted = (q ? [q[1]] : []).concat(navigator.languages || [navigator.language || 'en']);
  for (var i = 0; i < wanted.length; i++) {
    var l = String(wanted[i]).slice(0, 2).toLowerCase();
    if (WORDS[l]) return l;
  }
  return 'en';
}

function applyLanguage() {
  document.documentElement.lang = lang;
  document.querySelectorAll('[data-t]').forEach(function (e) { e.textContent = t(e.dataset.t); });
  document.title = 'annabella: ' + t('title');
  document.querySelectorAll('#langs a').forEach(function (a) {
    if (a.lang === lang) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
}

// ------------------------------------------------------------------ words for things

function hms(ms) {
  if (ms === undefined || ms === null) return '–';
  ms = Math.max(0, ms);
  var s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  s = s % 60;
  return h + ':' + (m < 10 ? '0' : '') + m + ':' + (s < 10 ? '0' : '') + s;
}

function ago(ms) {
  var s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return t('s', { n: s });
  if (s < 7200) return t('m', { n: Math.floor(s / 60) });
  return t('h', { n: Math.floor(s / 3600) });
}

// SAN with the page's piece letters (FIDE Appendix C allows the national ones).
function localSan(san) { return Board.localSan(san, lang); }

// A clock time of the page's language ("14:03:05"): what an outage is dated by, so the live
// region that says it never changes while it lasts.
function clockAt(ms) {
  return new Date(ms).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

// A delay: seconds under a minute, else minutes in the language's numbers ("1,5 min").
function delayWords(ms) {
  if (ms < 60000) return t('s', { n: Math.round(ms / 1000) });
  return t('m', { n: (Math.round(ms / 6000) / 10).toLocaleString(lang) });
}

function unnamed(v) { return !v || v === '?'; }

function boardName(b) {
  var tg = b.tags || {};
  return tg.Board && tg.Board !== '?' ? t('board', { b: tg.Board }) : b.name;
}

// A board's heading as parts: text, and the players' names, each to be isolated (<bdi>) so
// that a right-to-left name keeps its place.  A board without names is called by its name
// once ("pi-01"), a missing name by its colour.
function heading(b) {
  var tg = b.tags || {}, parts = [];
  if (tg.Board && tg.Board !== '?') parts.push(t('board', { b: tg.Board }) + ': ');
  if (unnamed(tg.White) && unnamed(tg.Black)) {
    parts.push({ name: b.name });
  } else {
    parts.push(unnamed(tg.White) ? t('white') : { name: tg.White });
    parts.push(' – ');
    parts.push(unnamed(tg.Black) ? t('black') : { name: tg.Black });
  }
  return parts;
}

function setHeading(v, b) {
  var parts = heading(b), key = JSON.stringify(parts);
  if (v.heading === key) return;
  v.heading = key;
  v.h.textContent = '';
  parts.forEach(function (p) {
    if (typeof p === 'string') v.h.appendChild(document.createTextNode(p));
    else v.h.appendChild(make('bdi', null, p.name));
  });
}

// The half-move index of a game's first ply (0: White's first move), from its FEN tag.
function firstHalf(b) {
  var fen = (b.tags || {}).FEN;
  if (!fen) return 0;
  var f = fen.split(' ');
  return ((+f[5] || 1) - 1) * 2 + (f[1] === 'b' ? 1 : 0);
}

function plyWords(b, i) {
  var half = firstHalf(b) + i;
  return { n: Math.floor(half / 2) + 1, c: t(half % 2 ? 'black' : 'white') };
}

// Whether a board's data is live, and if not, why (a key of WORDS).
function linkState(b) {
  if (relayLost) return 'norelay';
  if (room && room.broker && !room.broker.up) return 'nobroker';
  var l = b.link || {};
  if (l.broadcast === false) return 'offline';
  if (l.daemon === false) return 'nodevice';
  return 'live';
}

// Now on the relay's clock, as far as the page can tell.
function serverAge(ms) { return ms + (Date.now() - fetchedAt); }

function remaining(b, side, state) {
  var c = b.clock || {}, ms = c[side + '_ms'];
  if (ms === undefined) return undefined;
  // Counted on only while the data is live: stale data stands still.
  if (c.running === side && c.state === 'running' && state === 'live')
    ms -= serverAge(c.age_ms || 0);
  return ms;
}

// ------------------------------------------------------------------ the boards

function make(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function setText(e, text) { if (e.textContent !== text) e.textContent = text; }

function createBoard(b) {
  var li = make('li');
  li.id = 'board-' + b.name;
  var v = { li: li, fen: null, moves: [], heading: null, plies: b.plies, result: b.result,
    state: null, lang: lang };
  v.h = make('h3');
  li.appendChild(v.h);
  // Follow this board in the news (a screen reader hears only the boards followed).
  var follow = make('p', 'follow');
  v.follow = make('input');
  v.follow.type = 'checkbox';
  v.follow.id = 'follow-' + b.name;
  v.follow.checked = following.indexOf(b.name) >= 0;
  v.follow.addEventListener('change', function () {
    following = following.filter(function (n) { return n !== b.name; });
    if (v.follow.checked) following.push(b.name);
    keepNewsChoice();
    sayNewsChoice();
  });
  v.followLabel = make('label');
  v.followLabel.htmlFor = v.follow.id;
  follow.appendChild(v.follow);
  follow.appendChild(v.followLabel);
  li.appendChild(follow);
  v.link = make('p', 'link');
  li.appendChild(v.link);
  var clocks = make('div', 'clocks');
  v.clock = {};
  ['white', 'black'].forEach(function (side) {
    var c = make('p', 'clock');
    c.appendChild(make('span', 'who'));
    var time = make('span', 'time');
    c.appendChild(time);
    v.clock[side] = { el: c, who: c.firstChild, time: time };
    clocks.appendChild(c);
  });
  li.appendChild(clocks);
  v.diagramBox = make('div', 'diagram-box');
  li.appendChild(v.diagramBox);
  var details = make('details', 'moves');
  v.summary = make('summary');
  details.appendChild(v.summary);
  v.list = make('ol');
  details.appendChild(v.list);
  li.appendChild(details);
  v.meta = make('p', 'meta');
  li.appendChild(v.meta);
  shown[b.name] = v;
  return v;
}

function updateMoves(v, b) {
  var moves = b.moves || [];
  var same = v.lang === lang && moves.length >= v.moves.length &&
    v.moves.every(function (m, i) { return moves[i] === m; });
  if (!same) {
    v.list.textContent = '';
    v.moves = [];
  }
  // Only the new moves are added: one list item per move number.
  var start = firstHalf(b);
  for (var i = v.moves.length; i < moves.length; i++) {
    var half = start + i, li = v.list.lastChild;
    if (half % 2 === 0 || !li) {
      li = make('li');
      li.value = Math.floor(half / 2) + 1;
      if (half % 2) li.appendChild(document.createTextNode('… '));
      v.list.appendChild(li);
    } else {
      li.appendChild(document.createTextNode(' '));
    }
    li.appendChild(document.createTextNode(localSan(moves[i])));
  }
  v.moves = moves.slice();
  setText(v.summary, t('moves', { n: moves.length }));
}

function updateBoard(v, b) {
  setHeading(v, b);
  setText(v.followLabel, t('follow', { board: boardName(b) }));
  if (v.fen !== b.fen || v.lang !== lang) {
    var label = t('pieces', { p: Board.describe(b.fen, t('names'), t('white'), t('black'), t('none')) });
    var svg = Board.svg(b.fen, label);
    v.diagramBox.textContent = '';
    v.diagramBox.appendChild(svg);
    v.fen = b.fen;
  }
  updateMoves(v, b);
  setText(v.meta, b.result && b.result !== '*' ? t('resultline', { r: b.result }) : '');
  v.lang = lang;
}

// The parts that change with time: the clocks and the age of the data.
function tickBoard(v, b) {
  var state = linkState(b);
  var age = serverAge(b.age_ms || 0);
  var line = state === 'live' ? t('live', { a: ago(age) })
    : state === 'offline' ? t('offline', { a: ago(age) })
      : state === 'nodevice' ? t('nodevice', { a: ago(age) })
        : state === 'nobroker' || state === 'norelay' ? outage() + ' (' + t('since', { a: ago(Date.now() - outageSince()) }) + ')'
          : '';
  setText(v.link, line);
  v.link.classList.toggle('down', state !== 'live');
  ['white', 'black'].forEach(function (side) {
    var c = v.clock[side], running = b.clock && b.clock.running === side && b.clock.state === 'running';
    setText(c.who, t(side) + (running ? ', ' + t(state === 'live' ? 'running' : 'stale') : ''));
    setText(c.time, hms(remaining(b, side, state)));
    c.el.classList.toggle('running', running && state === 'live');
    c.el.classList.toggle('stale', state !== 'live');
  });
}

// ------------------------------------------------------------------ what happened

// Whether the news says what happens on a board: one followed, or any while none of the
// room's boards is (a board followed that left the room follows nothing).
function followed(name) {
  var present = following.filter(function (n) { return shown[n]; });
  return !present.length || present.indexOf(name) >= 0;
}

// A line of news about a board, if it is followed; while the news is paused the log neither
// speaks (aria-live off) nor moves.
function say(text, name) {
  if (!followed(name)) return;
  var news = document.getElementById('news');
  var p = make('p', null, text);
  news.appendChild(p);
  while (news.children.length > 40) news.removeChild(news.firstChild);
  if (!newsPaused) news.scrollTop = news.scrollHeight;
}

// Which boards the news follows, and whether it is paused: said beside the button.
function sayNewsChoice() {
  var names = [];
  (room ? room.boards : []).forEach(function (b) {
    if (following.indexOf(b.name) >= 0) names.push(boardName(b));
  });
  var text = newsPaused ? t('newspaused') : names.length ? t('newssome', { list: names.join(', ') }) : t('newsall');
  setText(document.getElementById('news-which'), text);
}

function keepNewsChoice() {
  try { localStorage.setItem('annabella-room-follow', JSON.stringify(following)); } catch (e) { /* private mode */ }
}

function pauseNews() {
  var button = document.getElementById('news-pause'), news = document.getElementById('news');
  newsPaused = !newsPaused;
  button.setAttribute('aria-pressed', String(newsPaused));
  news.setAttribute('aria-live', newsPaused ? 'off' : 'polite');
  if (!newsPaused) news.scrollTop = news.scrollHeight;
  sayNewsChoice();
}

function announce(v, b) {
  var name = boardName(b), moves = b.moves || [];
  if (b.plies > v.plies) {
    // The new moves, each with its number and colour (a burst: the last three).
    for (var i = Math.max(v.plies, b.plies - 3); i < b.plies; i++) {
      var w = plyWords(b, i);
      say(t('moveby', { board: name, n: w.n, c: w.c, san: localSan(moves[i] || '?') }), b.name);
    }
  } else if (b.plies < v.plies) {
    say(t('back', { board: name, p: b.plies }), b.name);
  }
  if (b.result && b.result !== '*' && b.result !== v.result) say(t('result', { board: name, r: b.result }), b.name);
  var state = linkState(b);
  if (v.state && state !== v.state && (state === 'offline' || state === 'nodevice' || state === 'live') &&
      !relayLost && !(room.broker && !room.broker.up))
    say(t(state === 'offline' ? 'boardoff' : state === 'nodevice' ? 'boarddev' : 'boardback', { board: name }), b.name);
  v.plies = b.plies;
  v.result = b.result;
  v.state = state;
}

// ------------------------------------------------------------------ the room

// Since when nothing is live (Date.now()): the relay's last answer, or when the relay lost
// the broker (its clock, brought to ours by the answer's age).
function outageSince() {
  if (relayLost) return answeredAt;
  return Date.now() - serverAge(room.now_ms - room.broker.since_ms);
}

// What an outage is, dated by the clock time it began, worked out once per outage so the
// live region that says it stays quiet while it lasts (its age beside it counts on).
var outageAt = { key: null, text: '' };
function outage() {
  var key = relayLost ? 'r' + answeredAt : 'b' + room.broker.since_ms;
  if (outageAt.key !== key + lang) {
    outageAt.key = key + lang;
    outageAt.text = t(relayLost ? 'norelay' : 'nobroker', { t: clockAt(outageSince()) });
  }
  return outageAt.text;
}

function sayRoom() {
  var el = document.getElementById('state'), text, down = relayLost || !!(room && room.broker && !room.broker.up);
  if (down) text = outage();
  else {
    var n = room.boards.length;
    text = n ? (n === 1 ? t('count1') : t('count', { n: n })) : t('noboards');
    if (room.arbiter) text += '. ' + t('arbiter');
    else if (room.delay_ms) text += '. ' + t('delayed', { d: delayWords(room.delay_ms) });
  }
  // A live region: written only when it says something new; the outage's age is beside it.
  setText(el, text);
  setText(document.getElementById('state-age'), down ? '(' + t('since', { a: ago(Date.now() - outageSince()) }) + ')' : '');
  el.classList.toggle('down', down);
}

function render() {
  var list = document.getElementById('boards');
  var names = {};
  room.boards.forEach(function (b, i) {
    names[b.name] = true;
    var v = shown[b.name];
    if (!v) {
      v = createBoard(b);
      v.plies = b.plies;
      v.result = b.result;
      v.state = linkState(b);
    } else {
      announce(v, b);
    }
    updateBoard(v, b);
    // In board order; a node is moved only when it is out of place.
    if (list.children[i] !== v.li) list.insertBefore(v.li, list.children[i] || null);
  });
  for (var name in shown) {
    if (!names[name]) {
      shown[name].li.remove();
      delete shown[name];
    }
  }
  sayNewsChoice();
  tick();
}

function tick() {
  if (!room && !relayLost) return;
  sayRoom();
  if (!room) return;
  room.boards.forEach(function (b) { if (shown[b.name]) tickBoard(shown[b.name], b); });
}

var POLL_GIVE_UP_MS = 5000; // a poll without an answer this long: the relay is not reachable

function poll() {
  var ctl = window.AbortController ? new AbortController() : null;
  var timer = setTimeout(function () { if (ctl) ctl.abort(); }, POLL_GIVE_UP_MS);
  // The relay answers from what it built last (X-Age-Ms: how long ago): the times in it are
  // as of then.
  var age = 0;
  fetch('/api/boards', { cache: 'no-store', signal: ctl ? ctl.signal : undefined }).then(function (r) {
    if (!r.ok) throw new Error('HTTP ' + r.status);
    age = parseInt(r.headers.get('X-Age-Ms'), 10) || 0;
    return r.json();
  }).then(function (j) {
    answeredAt = Date.now();
    fetchedAt = answeredAt - age;
    relayLost = false;
    room = j;
    render();
  }).catch(function () {
    if (!answeredAt) answeredAt = Date.now();
    relayLost = true;
    tick();
  }).then(function () {
    clearTimeout(timer);
    setTimeout(poll, 1000);
  });
}

document.addEventListener('DOMContentLoaded', function () {
  lang = pickLanguage();
  try { following = JSON.parse(localStorage.getItem('annabella-room-follow') || '[]').filter(function (n) { return typeof n === 'string'; }); } catch (e) { following = []; }
  document.getElementById('news-pause').addEventListener('click', pauseNews);
  applyLanguage();
  sayNewsChoice();
  poll();
  setInterval(tick, 250);
});
