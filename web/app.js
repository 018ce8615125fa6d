// annabella web: the live page for the assistant and the arbiter (DESIGN 9).
// Everything comes from this server: /api/status, /api/moves, /api/commands, /api/events
// (server-sent events) and POST /api/command.  No library, nothing from the internet.
'use strict';

const T = {
  de: {
    skip: 'Zu den Befehlen', clocks: 'Uhren', white: 'Weiß', black: 'Schwarz', state: 'Stand',
    announcements: 'Ansagen', position: 'Stellung', pieces: 'Figuren', scoresheet: 'Partieformular',
    number: 'Nr.', download: 'PGN herunterladen', commands: 'Befehle',
    'pin-help': 'Ohne PIN nur lesen. Die PIN des Assistenten oder des Schiedsrichters gibt deren Befehle.',
    pin: 'PIN', relay: 'Zug des Gegners weitergeben', move: 'Zug', send: 'Senden',
    'command-any': 'Jeder Befehl', command: 'Befehl', args: 'Angaben', reply: 'Antwort',
    running: 'läuft', stopped: 'steht', paused: 'angehalten', flag: 'Zeit überschritten',
    nogame: 'Keine Partie', connected: 'Mit dem Gerät verbunden', lost: 'Keine Verbindung zum Gerät; neuer Versuch läuft',
    server: 'Keine Verbindung zur Seite; neuer Versuch läuft',
    tomove: '{c} am Zug', nothing: 'Nichts offen', promotion: 'Umwandlung offen: {m}',
    mismatch: 'Brett stimmt nicht mit der Partie überein', empty: 'sollten leer sein: {s}', occupied: 'sollten besetzt sein: {s}',
    setup: 'Stellung aufbauen nach Rücknahme; abweichend: {s}', setupdone: 'Stellung stimmt',
    result: 'Ergebnis {r}', reason: 'Grund: {r}', approved: 'bestätigt', pending: 'noch nicht bestätigt',
    flagpending: 'Fallblättchen {c} gefallen, Ergebnis {r} wartet', on: 'Partie läuft',
    offer: 'Remisangebot von {c}', claim: 'Reklamation {k} von {c}', claimopen: 'wartet auf den Schiedsrichter',
    illegal: 'Regelwidrige Züge: Weiß {w}, Schwarz {b}', saving: 'Speichern schlägt fehl: {e}',
    diagram: 'Stellungsdiagramm, Weiß unten; die Figuren stehen als Liste daneben.',
    names: { K: 'König', Q: 'Dame', R: 'Turm', B: 'Läufer', N: 'Springer', P: 'Bauer' },
    none: 'keine', needpin: 'Dieser Befehl braucht eine PIN.', sent: 'Gesendet: {l}', ok: 'Erledigt',
    clockline: 'Bedenkzeit {t}', low: 'wenig Zeit'
  },
  en: {
    skip: 'Skip to the commands', clocks: 'Clocks', white: 'White', black: 'Black', state: 'State of play',
    announcements: 'Announcements', position: 'Position', pieces: 'Pieces', scoresheet: 'Scoresheet',
    number: 'No.', download: 'Download PGN', commands: 'Commands',
    'pin-help': 'Without a PIN the page only reads. The assistant\'s or the arbiter\'s PIN gives their commands.',
    pin: 'PIN', relay: 'Relay the opponent\'s move', move: 'Move', send: 'Send',
    'command-any': 'Any command', command: 'Command', args: 'Arguments', reply: 'Reply',
    running: 'running', stopped: 'stopped', paused: 'paused', flag: 'flag fallen',
    nogame: 'No game', connected: 'Connected to the device', lost: 'No connection to the device; retrying',
    server: 'No connection to the page\'s server; retrying',
    tomove: '{c} to move', nothing: 'Nothing open', promotion: 'Promotion open: {m}',
    mismatch: 'The board does not match the game', empty: 'should be empty: {s}', occupied: 'should be occupied: {s}',
    setup: 'Setting up the position after a rollback; differing: {s}', setupdone: 'Position matches',
    result: 'Result {r}', reason: 'Reason: {r}', approved: 'approved', pending: 'not yet approved',
    flagpending: '{c}\'s flag has fallen; result {r} pending', on: 'Game in progress',
    offer: 'Draw offer by {c}', claim: '{k} claim by {c}', claimopen: 'waiting for the arbiter',
    illegal: 'Illegal moves: White {w}, Black {b}', saving: 'Saving fails: {e}',
    diagram: 'Diagram of the position, White at the bottom; the pieces are listed beside it.',
    names: { K: 'King', Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', P: 'Pawn' },
    none: 'none', needpin: 'This command needs a PIN.', sent: 'Sent: {l}', ok: 'Done',
    clockline: 'Time control {t}', low: 'low on time'
  },
  sv: {
    skip: 'Till kommandona', clocks: 'Klockor', white: 'Vit', black: 'Svart', state: 'Läge',
    announcements: 'Utrop', position: 'Ställning', pieces: 'Pjäser', scoresheet: 'Protokoll',
    number: 'Nr', download: 'Ladda ner PGN', commands: 'Kommandon',
    'pin-help': 'Utan PIN kan sidan bara läsas. Assistentens eller domarens PIN ger deras kommandon.',
    pin: 'PIN', relay: 'Vidarebefordra motståndarens drag', move: 'Drag', send: 'Skicka',
    'command-any': 'Alla kommandon', command: 'Kommando', args: 'Argument', reply: 'Svar',
    running: 'går', stopped: 'står', paused: 'pausad', flag: 'flaggan har fallit',
    nogame: 'Inget parti', connected: 'Ansluten till enheten', lost: 'Ingen anslutning till enheten; försöker igen',
    server: 'Ingen anslutning till sidans server; försöker igen',
    tomove: '{c} vid draget', nothing: 'Inget öppet', promotion: 'Förvandling öppen: {m}',
    mismatch: 'Brädet stämmer inte med partiet', empty: 'ska vara tomma: {s}', occupied: 'ska vara upptagna: {s}',
    setup: 'Ställningen ställs upp efter återtagning; avviker: {s}', setupdone: 'Ställningen stämmer',
    result: 'Resultat {r}', reason: 'Skäl: {r}', approved: 'godkänt', pending: 'ännu inte godkänt',
    flagpending: '{c}s flagga har fallit; resultat {r} väntar', on: 'Partiet pågår',
    offer: 'Remierbjudande från {c}', claim: 'Reklamation ({k}) från {c}', claimopen: 'väntar på domaren',
    illegal: 'Regelstridiga drag: vit {w}, svart {b}', saving: 'Sparandet misslyckas: {e}',
    diagram: 'Diagram över ställningen, vit nederst; pjäserna listas bredvid.',
    names: { K: 'Kung', Q: 'Dam', R: 'Torn', B: 'Löpare', N: 'Springare', P: 'Bonde' },
    none: 'inga', needpin: 'Det här kommandot kräver en PIN.', sent: 'Skickat: {l}', ok: 'Klart',
    clockline: 'Betänketid {t}', low: 'ont om tid'
  },
  nl: {
    skip: 'Naar de opdrachten', clocks: 'Klokken', white: 'Wit', black: 'Zwart', state: 'Stand van zaken',
    announcements: 'Aankondigingen', position: 'Stelling', pieces: 'Stukken', scoresheet: 'Notatieformulier',
    number: 'Nr.', download: 'PGN downloaden', commands: 'Opdrachten',
    'pin-help': 'Zonder pincode kan de pagina alleen lezen. De pincode van de assistent of de arbiter geeft hun opdrachten.',
    pin: 'Pincode', relay: 'Zet van de tegenstander doorgeven', move: 'Zet', send: 'Versturen',
    'command-any': 'Elke opdracht', command: 'Opdracht', args: 'Argumenten', reply: 'Antwoord',
    running: 'loopt', stopped: 'staat stil', paused: 'gepauzeerd', flag: 'vlag gevallen',
    nogame: 'Geen partij', connected: 'Verbonden met het apparaat', lost: 'Geen verbinding met het apparaat; nieuwe poging',
    server: 'Geen verbinding met de server van de pagina; nieuwe poging',
    tomove: '{c} aan zet', nothing: 'Niets open', promotion: 'Promotie open: {m}',
    mismatch: 'Het bord klopt niet met de partij', empty: 'moeten leeg zijn: {s}', occupied: 'moeten bezet zijn: {s}',
    setup: 'Stelling opzetten na terugnemen; afwijkend: {s}', setupdone: 'Stelling klopt',
    result: 'Uitslag {r}', reason: 'Reden: {r}', approved: 'bevestigd', pending: 'nog niet bevestigd',
    flagpending: 'Vlag van {c} gevallen; uitslag {r} wacht', on: 'Partij loopt',
    offer: 'Remiseaanbod van {c}', claim: 'Claim ({k}) van {c}', claimopen: 'wacht op de arbiter',
    illegal: 'Onreglementaire zetten: wit {w}, zwart {b}', saving: 'Opslaan mislukt: {e}',
    diagram: 'Diagram van de stelling, wit onderaan; de stukken staan ernaast in een lijst.',
    names: { K: 'Koning', Q: 'Dame', R: 'Toren', B: 'Loper', N: 'Paard', P: 'Pion' },
    none: 'geen', needpin: 'Deze opdracht vraagt een pincode.', sent: 'Verstuurd: {l}', ok: 'Gedaan',
    clockline: 'Bedenktijd {t}', low: 'weinig tijd'
  }
};
const GLYPH = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙', k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
const ORDER = 'KQRBNP';

let lang = 'de';
let status = null;      // the last /api/status
let statusAt = 0;       // performance.now() when the daemon read the clocks
let moves = [];
let commandsLoaded = false;
let refreshTimer = null;
let lastEventId = null;

const $ = (id) => document.getElementById(id);
function t(key, args) {
  let s = (T[lang] && T[lang][key]) || T.en[key] || key;
  for (const k in args || {}) s = s.split('{' + k + '}').join(args[k]);
  return s;
}
const colorName = (c) => t(c === 'white' ? 'white' : 'black');

function applyLanguage(l) {
  if (!T[l] || l === lang && document.documentElement.lang === l) return;
  lang = l;
  document.documentElement.lang = l;
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
}

// ------------------------------------------------------------------ clocks

function clockText(ms) {
  if (ms < 0) ms = 0;
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return (h ? h + ':' : '') + mm + ':' + String(sec).padStart(2, '0');
}

function tick() {
  const c = status && status.clock;
  for (const side of ['white', 'black']) {
    const el = $('clock-' + side);
    if (!c) {
      el.querySelector('.time').textContent = '–';
      el.querySelector('.state').textContent = '';
      el.classList.remove('running', 'low');
      continue;
    }
    let ms = c[side + '_ms'];
    const running = c.running === side && c.state === 'running';
    if (running) ms -= performance.now() - statusAt;
    el.querySelector('.time').textContent = clockText(ms);
    el.classList.toggle('running', running);
    el.classList.toggle('low', ms < 60000);
    let st = running ? t('running') : c.state === 'paused' ? t('paused') : t('stopped');
    if (ms <= 0) st = t('flag');
    else if (ms < 60000) st += ', ' + t('low');
    el.querySelector('.state').textContent = st;
  }
}

// ------------------------------------------------------------------ rendering

function squares(list) {
  return list && list.length ? list.join(' ') : t('none');
}

function stateLines(s) {
  const out = [];
  if (!s || !s.game) return [[t('nogame'), false]];
  const f = s.flows || {};
  if (f.promotion) out.push([t('promotion', { m: f.promotion.move + (f.promotion.choice ? ' ' + f.promotion.choice : '') }), true]);
  if (f.mismatch) {
    out.push([t('mismatch') + '. ' + t('empty', { s: squares(f.mismatch.should_be_empty) }) + '; ' +
      t('occupied', { s: squares(f.mismatch.should_be_occupied) }), true]);
  }
  if (f.setup) out.push([t('setup', { s: squares(f.setup.differ_now) }), true]);
  if (s.draw_offer) out.push([t('offer', { c: colorName(s.draw_offer) }), true]);
  if (s.claim && s.claim.open) out.push([t('claim', { k: s.claim.kind, c: colorName(s.claim.by) }) + ', ' + t('claimopen'), true]);
  const r = s.result || {};
  if (r.state === 'flag-pending' || r.flag) out.push([t('flagpending', { c: colorName(r.flag), r: r.flag_result || '' }), true]);
  else if (r.result && r.result !== '*') {
    out.push([t('result', { r: r.result }) + ' (' + (r.approved ? t('approved') : t('pending')) + ')' +
      (r.reason ? '. ' + t('reason', { r: r.reason }) : ''), true]);
  } else out.push([t('on'), false]);
  if (s.illegal && (s.illegal.white || s.illegal.black)) out.push([t('illegal', { w: s.illegal.white, b: s.illegal.black }), false]);
  if (s.record && s.record.saving === false) out.push([t('saving', { e: s.record.saving_error || '' }), true]);
  if (!out.some((l) => l[1]) && out.length === 1) out.unshift([t('nothing'), false]);
  return out;
}

function renderBoard(fen) {
  const grid = $('grid');
  const rows = (fen || '8/8/8/8/8/8/8/8').split(' ')[0].split('/');
  const cells = [];
  const lists = { w: {}, b: {} };
  rows.forEach((row, r) => {
    const rank = 8 - r;
    cells.push('<span class="lab">' + rank + '</span>');
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) {
        for (let i = 0; i < +ch; i++, file++) cells.push('<span class="' + ((file + rank) % 2 ? 'd' : 'l') + '"></span>');
        continue;
      }
      const sq = 'abcdefgh'[file] + rank;
      const side = ch === ch.toUpperCase() ? 'w' : 'b';
      (lists[side][ch.toUpperCase()] = lists[side][ch.toUpperCase()] || []).push(sq);
      cells.push('<span class="' + ((file + rank) % 2 ? 'd' : 'l') + '">' + (GLYPH[ch] || '') + '</span>');
      file++;
    }
  });
  cells.push('<span></span>');
  for (const f of 'abcdefgh') cells.push('<span class="lab">' + f + '</span>');
  grid.innerHTML = cells.join('');
  $('diagram').setAttribute('aria-label', t('diagram'));
  for (const side of ['w', 'b']) {
    const parts = [];
    for (const p of ORDER) {
      const sqs = lists[side][p];
      if (sqs) parts.push(t('names')[p] + ' ' + sqs.sort().join(', '));
    }
    $(side === 'w' ? 'pieces-white' : 'pieces-black').textContent =
      t(side === 'w' ? 'white' : 'black') + ': ' + (parts.join('; ') || t('none'));
  }
}

function renderMoves() {
  const body = $('moves').tBodies[0];
  const rows = [];
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  const cell = (m) => m ? esc(m.san) + (m.draw_offer ? ' (=)' : '') + (m.clk ? ' <small>' + esc(m.clk) + '</small>' : '') : '';
  // The first ply may be Black's (a game from a position).
  const blackFirst = !!status && moves.length > 0 &&
    (status.plies % 2 === 0 ? status.to_move === 'black' : status.to_move === 'white');
  const list = blackFirst ? [null].concat(moves) : moves;
  for (let i = 0; i < list.length; i += 2) {
    rows.push('<tr><th scope="row">' + (i / 2 + 1) + '</th><td>' + cell(list[i]) + '</td><td>' + cell(list[i + 1]) + '</td></tr>');
  }
  body.innerHTML = rows.join('');
}

function render(prev) {
  const s = status;
  if (s && s.lang) applyLanguage(s.lang);
  const tags = (s && s.tags) || {};
  const names = [tags.White, tags.Black].filter((n) => n && n !== '?');
  const title = 'annabella' + (names.length === 2 ? ': ' + names[0] + ' – ' + names[1] : '');
  $('title').textContent = title;
  document.title = title;
  $('state').innerHTML = '';
  for (const [text, alert] of stateLines(s)) {
    const li = document.createElement('li');
    li.textContent = text;
    if (alert) li.className = 'alert';
    $('state').appendChild(li);
  }
  renderBoard(s && s.fen);
  $('to-move').textContent = s && s.to_move ? t('tomove', { c: colorName(s.to_move) }) : '';
  $('clock-line').textContent = s && s.clock ? t('clockline', { t: s.clock.time_control }) : '';
  renderMoves();
  markCommands();
  tick();
  // What changed in the flows is announced; the moves are announced by their words.
  if (prev && s) {
    const before = new Set(stateLines(prev).map((l) => l[0]));
    for (const [text, alert] of stateLines(s)) if (alert && !before.has(text)) announce(text);
  }
}

function announce(text) {
  const p = document.createElement('p');
  p.textContent = text;
  $('log').appendChild(p);
  while ($('log').children.length > 30) $('log').removeChild($('log').firstChild);
  $('log').scrollTop = $('log').scrollHeight;
}

// ------------------------------------------------------------------ data

async function refresh() {
  refreshTimer = null;
  try {
    const r = await fetch('/api/status', { cache: 'no-store' });
    const age = +(r.headers.get('X-Age-Ms') || 0);
    const s = await r.json();
    const prev = status;
    if (s.ok) {
      status = s;
      statusAt = performance.now() - age;
      const m = await (await fetch('/api/moves', { cache: 'no-store' })).json();
      moves = m.ok ? m.moves : [];
    } else {
      status = null;
      moves = [];
    }
    render(prev);
    if (!commandsLoaded) loadCommands();
  } catch (e) {
    setConn(t('server'), true);
  }
}

function soon() {
  if (!refreshTimer) refreshTimer = setTimeout(refresh, 20);
}

function setConn(text, down) {
  if ($('conn').textContent !== text) $('conn').textContent = text;
  $('conn').classList.toggle('down', !!down);
}

function connect() {
  const es = new EventSource('/api/events');
  es.addEventListener('hello', () => { setConn(t('connected'), false); soon(); });
  es.addEventListener('reset', soon);
  es.onmessage = (e) => {
    lastEventId = e.lastEventId;
    let ev;
    try { ev = JSON.parse(e.data); } catch (err) { return; }
    if (ev.event === 'say' && ev.channel === 'public') announce(ev.text);
    if (ev.event === 'daemon') setConn(t(ev.up ? 'connected' : 'lost'), !ev.up);
    soon();
  };
  es.onerror = () => setConn(t('server'), true);
}

// ------------------------------------------------------------------ commands

// The form reads the daemon's command table (`help`): each row with its usage, who may give
// it, what it needs of the game and the words its first argument takes.
let commands = [];

async function loadCommands() {
  try {
    const r = await (await fetch('/api/commands', { cache: 'no-store' })).json();
    if (!r.ok) return;
    const sel = $('command');
    sel.innerHTML = '';
    commands = r.commands.filter((c) => !c.session);
    commands.forEach((c, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = c.usage + (c.role === 'arbiter' ? ' (arbiter)' : '');
      sel.appendChild(o);
    });
    commandsLoaded = true;
    showUsage();
    markCommands();
  } catch (e) { /* tried again on the next refresh */ }
}

// What a row needs of the game, against the last status: a command the game does not allow
// now is shown but cannot be chosen.
function allowedNow(c, s) {
  if (!s || !s.game) return !(c.needs || []).length;
  const r = (s.result && s.result.state) || 'on';
  if (c.modes && !c.modes.includes(s.mode)) return false;
  for (const n of c.needs || []) {
    if (n === 'clock' && !s.clock) return false;
    if (n === 'not-over' && (r === 'ended' || r === 'approved')) return false;
    if (n === 'play' && r !== 'on') return false;
    if (n === 'not-closed' && r === 'approved') return false;
  }
  return true;
}

function markCommands() {
  const sel = $('command');
  commands.forEach((c, i) => { if (sel.options[i]) sel.options[i].disabled = !allowedNow(c, status); });
}

function showUsage() {
  const c = commands[+$('command').value];
  $('usage').textContent = c ? c.usage : '';
  const list = $('args-words');
  list.innerHTML = '';
  for (const w of c ? (c.sub || []).concat(c.args || []) : []) {
    const o = document.createElement('option');
    o.value = w;
    list.appendChild(o);
  }
}

async function send(line) {
  const pin = $('pin').value.trim();
  const reply = $('reply');
  const text = $('reply-text');
  text.hidden = true;
  reply.classList.remove('error');
  try {
    const headers = { 'Content-Type': 'text/plain; charset=utf-8' };
    if (pin) headers['X-PIN'] = pin;
    const r = await fetch('/api/command', { method: 'POST', headers, body: line });
    const j = await r.json();
    if (j.ok) {
      reply.textContent = t('sent', { l: line }) + ': ' + (j.text && !j.format ? j.text : t('ok'));
      const detail = j.format ? j.text : j.moves || j.commands || j.game || j.agree !== undefined ? JSON.stringify(j, null, 1) : '';
      if (detail) { text.textContent = detail; text.hidden = false; }
      soon();
    } else {
      reply.textContent = t('sent', { l: line }) + ': ' + j.error;
      reply.classList.add('error');
    }
    return j.ok;
  } catch (e) {
    reply.textContent = t('server');
    reply.classList.add('error');
    return false;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  applyLanguage(document.documentElement.lang || 'de');
  $('command').addEventListener('change', showUsage);
  $('relay-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const m = $('relay-move').value.trim();
    if (m && await send('move ' + m)) $('relay-move').value = '';
  });
  $('command-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const c = commands[+$('command').value];
    const args = $('args').value.trim();
    if (c) send(c.name + (args ? ' ' + args : ''));
  });
  setInterval(tick, 100);
  // A page left open catches up on its own: the status every 30 s besides every event.
  setInterval(soon, 30000);
  connect();
  refresh();
});
