// annabella web: the live page for the assistant and the arbiter (docs/web.md "The web page for the
// assistant and the arbiter"). Everything comes from this server: /api/status, /api/moves,
// /api/commands, /api/legal, /api/events (server-sent events) and POST /api/command.  No
// library, nothing from the internet.  Every word is in the page's language (the daemon's, or
// ?lang=), the daemon's replies too (codes.js words them by their codes); the Appendix D
// words of the announcements carry lang="de".  Data that is not
// live (the daemon or the web process frozen or gone) is said to be old, and the clocks stop
// counting.
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
    offer: 'Remisangebot von {c}', claim: 'Remisreklamation von {c}: {k}', claimopen: 'wartet auf den Schiedsrichter',
    illegal: 'Regelwidrige Züge: Weiß {w}, Schwarz {b}', saving: 'Speichern schlägt fehl: {e}',
    diagram: 'Stellungsdiagramm, Weiß unten; die Figuren stehen als Liste daneben.',
    names: { K: 'König', Q: 'Dame', R: 'Turm', B: 'Läufer', N: 'Springer', P: 'Bauer' },
    'claim-made': 'Reklamation von {c}: der Zug {m} ist auf dem Brett ausgeführt, aber noch nicht mit der Uhr abgeschlossen; die Reklamation bezieht sich auf die Stellung danach und kam nach dem Zug (der Schiedsrichter wägt das ab, 9.4). Die Uhren halten an; der Schiedsrichter entscheidet.',
    'claim-notnow': '{c} kann jetzt nicht reklamieren: {o} ist am Zug (9.2, 9.3: nur wer am Zug ist, reklamiert); das Gerät würde die Reklamation ablehnen.',
    'claim-notnowmade': '{c} kann jetzt nicht reklamieren: {o} hat einen Zug auf dem Brett ausgeführt und die Uhr noch nicht gedrückt, ist also am Zug (9.2, 9.3); das Gerät würde die Reklamation ablehnen.',
    tactile: '{c}, taktiler Spieler', wrongpinwait: 'Falsche PIN; die nächste wird in {s} s geprüft.', pinwait: 'Zu viele falsche PINs von dieser Adresse; bitte {s} s warten.',
    restart: 'Das Gerät wurde neu gestartet: die Uhren stehen. Der Schiedsrichter prüft sie, bevor sie wieder laufen.',
    uncharged: 'Bis zu {n} Bedenkzeit von {c} vor dem Neustart wurden womöglich nicht abgezogen{l}.', atleast: ' (mindestens {m})',
    uncertain: 'Die Aufzeichnungen der Uhren gingen verloren: sie stehen auf den letzten bekannten Ständen, bis der Schiedsrichter sie startet oder stellt.',
    'stopped-player': 'vom Spieler angehalten', 'stopped-arbiter': 'vom Schiedsrichter angehalten', 'stopped-claim': 'für die Reklamation angehalten', 'stopped-restart': 'durch einen Neustart angehalten', 'stopped-engine': 'angehalten, das Schachprogramm fehlt',
    relaysent: 'Zug des Gegners {m}', plyn: 'Halbzug {p}',
    tc: { moves: '{n} Züge in {t}', inc: '{t} + {i} pro Zug', delay: '{t}, {i} Verzögerung pro Zug', bronstein: '{t}, Bronstein-Verzögerung {i} pro Zug', then: ', dann ', repeat: ' (wiederholt)' },
    none: 'keine', needpin: 'Dieser Befehl braucht eine PIN.', sent: 'Gesendet: {l}', ok: 'Erledigt',
    clockline: 'Bedenkzeit {t}', low: 'wenig Zeit',
    actions: 'Häufige Befehle', 'act-draw': 'Remis anbieten', 'act-claim': 'Remis reklamieren',
    'act-approve': 'Ergebnis bestätigen', 'arbiter-actions': 'Für den Schiedsrichter',
    'act-pause': 'Uhren anhalten', 'act-resume': 'Uhren starten', 'act-result': 'Ergebnis eintragen',
    'act-uphold': 'Reklamation stattgeben', 'act-reject': 'Reklamation ablehnen', cancel: 'Abbrechen',
    'act-seal': 'Fair Play prüfen', 'fp-ok': 'Versiegelt: das Gerät hält die Fair-Play-Regeln ein.', 'fp-breach': 'Regeln verletzt bei Zug {m}: {w}', 'fp-start': 'Zu Beginn nicht versiegelt: {w}', 'fp-now': 'Jetzt nicht eingehalten.', 'fp-none': 'Kein Fair-Play-Stand: er wird in Turnierpartien mit dem echten Brett gemessen.', 'fp-fix': 'Abhilfe: {f}', 'fp-items': { network: 'Netzwerk', radios: 'Funk', 'engine-installed': 'Schachprogramm installiert', 'engine-running': 'Schachprogramm läuft', training: 'Trainingsprogramm', logins: 'Anmeldungen', files: 'Paketdateien', version: 'Version' },
    confirm: 'Senden', side: 'Seite', kind: 'Art', threefold: 'Dreimalige Stellungswiederholung (9.2)',
    fifty: '50-Züge-Regel (9.3)', intended: 'Beabsichtigter Zug (wenn noch nicht gespielt)',
    'draw-text': 'Remisangebot von {c}. Es wird beim Zug vermerkt.', 'claim-text': 'Reklamation von {c}, am Zug. Die Uhren halten an; der Schiedsrichter entscheidet.',
    'approve-text': 'Die Spieler bestätigen das Ergebnis {r}.', 'resume-text': 'Die Uhren laufen wieder: die Uhr von {c} läuft.',
    'result-text': 'Die Partie endet mit diesem Ergebnis; die Uhren halten an.', result1: 'Ergebnis', reasonlabel: 'Grund',
    'uphold-text': 'Der Reklamation von {c} wird stattgegeben: Remis.', 'reject-text': 'Die Reklamation von {c} wird abgelehnt; die Strafe geht an den Gegner, die Uhren laufen.',
    'arbiter-only': '(Schiedsrichter)', wrongpin: 'Falsche PIN.', toomany: 'Zu viele falsche PINs auf dieser Seite; bitte {s} s warten.',
    crowded: 'Zu viele Adressen probieren PINs auf dieser Seite; bitte {s} s warten.', reads: 'Zu viele Anfragen von dieser Adresse; bitte {s} s warten.',
    busy: 'Das Gerät ist beschäftigt; bitte in {s} s noch einmal senden.',
    unreachable: 'Das Gerät ist nicht erreichbar.', badrequest: 'Die Anfrage wurde abgelehnt: {e}', refused: 'Abgelehnt: ',
    legalhint: '{n} erlaubte Züge für {c}; beim Tippen werden sie angeboten (Nf3, Sf3 oder g1f3).', notturn: '{c} ist am Zug; weitergegeben wird der Zug des Gegners.',
    relayfor: 'Weitergegeben wird der Zug {n} von {c} (Halbzug {p}).', relaycorrect: 'Ein jetzt gesendeter Zug korrigiert {m} (Halbzug {p}), bis der Gegner die Uhr drückt; das kann nur, wer ihn weitergegeben hat.',
    stale: 'Daten sind alt: seit {t} keine Verbindung zum Gerät. Die Uhren auf dieser Seite stehen.',
    staleserver: 'Daten sind alt: seit {t} keine Verbindung zur Seite. Die Uhren auf dieser Seite stehen.', notlive: 'nicht live'
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
    offer: 'Draw offer by {c}', claim: 'Draw claim by {c}: {k}', claimopen: 'waiting for the arbiter',
    illegal: 'Illegal moves: White {w}, Black {b}', saving: 'Saving fails: {e}',
    diagram: 'Diagram of the position, White at the bottom; the pieces are listed beside it.',
    names: { K: 'King', Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', P: 'Pawn' },
    'claim-made': 'A claim by {c}, whose move {m} is made on the board and not yet completed by the clock: the claim is about the position after it and came after the move was made (the arbiter weighs it, 9.4). The clocks stop; the arbiter decides.',
    'claim-notnow': '{c} cannot claim now: {o} is on move (9.2, 9.3: only the player on move may claim); the device would refuse the claim.',
    'claim-notnowmade': '{c} cannot claim now: {o} has made a move on the board and not yet pressed the clock, so {o} is on move (9.2, 9.3); the device would refuse the claim.',
    tactile: '{c}, the tactile player', wrongpinwait: 'Wrong PIN; the next is checked in {s} s.', pinwait: 'Too many wrong PINs from this address; wait {s} s.',
    restart: 'The device restarted: the clocks stopped. The arbiter checks them before they run again.',
    uncharged: 'Up to {n} of {c}\'s thinking time before the restart may not have been charged{l}.', atleast: ' (at least {m})',
    uncertain: 'The clocks\' records were lost: they stand at the last readings known until the arbiter starts or sets them.',
    'stopped-player': 'stopped by the player', 'stopped-arbiter': 'stopped by the arbiter', 'stopped-claim': 'stopped for the claim', 'stopped-restart': 'stopped by a restart', 'stopped-engine': 'stopped: the chess engine is gone',
    relaysent: 'the opponent\'s move {m}', plyn: 'ply {p}',
    tc: { moves: '{n} moves in {t}', inc: '{t} + {i} per move', delay: '{t}, delay {i} per move', bronstein: '{t}, Bronstein delay {i} per move', then: ', then ', repeat: ' (repeated)' },
    none: 'none', needpin: 'This command needs a PIN.', sent: 'Sent: {l}', ok: 'Done',
    clockline: 'Time control {t}', low: 'low on time',
    actions: 'Common commands', 'act-draw': 'Offer a draw', 'act-claim': 'Claim a draw',
    'act-approve': 'Approve the result', 'arbiter-actions': 'For the arbiter',
    'act-pause': 'Stop the clocks', 'act-resume': 'Start the clocks', 'act-result': 'Enter the result',
    'act-uphold': 'Uphold the claim', 'act-reject': 'Reject the claim', cancel: 'Cancel',
    'act-seal': 'Check fair play', 'fp-ok': 'Sealed: the device meets the fair-play policy.', 'fp-breach': 'Policy broken at move {m}: {w}', 'fp-start': 'Not sealed at the start: {w}', 'fp-now': 'Not met now.', 'fp-none': 'No fair-play state: it is measured in tournament games with the real board.', 'fp-fix': 'Fix: {f}', 'fp-items': { network: 'Network', radios: 'Radios', 'engine-installed': 'Chess engine installed', 'engine-running': 'Chess engine running', training: 'Training client', logins: 'Logins', files: 'Package files', version: 'Version' },
    confirm: 'Send', side: 'Side', kind: 'Kind', threefold: 'Threefold repetition (9.2)',
    fifty: 'Fifty-move rule (9.3)', intended: 'Intended move (if not yet played)',
    'draw-text': 'A draw offer by {c}. It is marked at the move.', 'claim-text': 'A claim by {c}, on move. The clocks stop; the arbiter decides.',
    'approve-text': 'The players approve the result {r}.', 'resume-text': 'The clocks run again: {c}\'s clock runs.',
    'result-text': 'The game ends with this result; the clocks stop.', result1: 'Result', reasonlabel: 'Reason',
    'uphold-text': 'The claim by {c} is upheld: a draw.', 'reject-text': 'The claim by {c} is rejected; the penalty goes to the opponent and the clocks run.',
    'arbiter-only': '(arbiter)', wrongpin: 'Wrong PIN.', toomany: 'Too many wrong PINs on this page; wait {s} s.',
    crowded: 'Too many addresses are trying PINs on this page; wait {s} s.', reads: 'Too many requests from this address; wait {s} s.',
    busy: 'The device is busy; send it again in {s} s.',
    unreachable: 'The device cannot be reached.', badrequest: 'The request was refused: {e}', refused: 'Refused: ',
    legalhint: '{n} legal moves for {c}; they are offered as you type (Nf3, Sf3 or g1f3).', notturn: '{c} is to move; a relayed move is the opponent\'s.',
    relayfor: 'The move relayed is {c}\'s move {n} (ply {p}).', relaycorrect: 'A move sent now corrects {m} (ply {p}) until the opponent presses the clock; only the one who relayed it may.',
    stale: 'Data is old: no connection to the device since {t}. The clocks on this page are stopped.',
    staleserver: 'Data is old: no connection to the page since {t}. The clocks on this page are stopped.', notlive: 'not live'
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
    offer: 'Remierbjudande från {c}', claim: 'Remireklamation från {c}: {k}', claimopen: 'väntar på domaren',
    illegal: 'Regelstridiga drag: vit {w}, svart {b}', saving: 'Sparandet misslyckas: {e}',
    diagram: 'Diagram över ställningen, vit nederst; pjäserna listas bredvid.',
    names: { K: 'Kung', Q: 'Dam', R: 'Torn', B: 'Löpare', N: 'Springare', P: 'Bonde' },
    'claim-made': 'Reklamation från {c}: draget {m} är utfört på brädet men ännu inte avslutat med klockan; reklamationen gäller ställningen efter det och kom efter draget (domaren väger in det, 9.4). Klockorna stannar; domaren avgör.',
    'claim-notnow': '{c} kan inte reklamera nu: {o} är vid draget (9.2, 9.3: bara den som är vid draget får reklamera); enheten skulle avslå reklamationen.',
    'claim-notnowmade': '{c} kan inte reklamera nu: {o} har gjort ett drag på brädet och ännu inte tryckt på klockan och är alltså vid draget (9.2, 9.3); enheten skulle avslå reklamationen.',
    tactile: '{c}, den taktila spelaren', wrongpinwait: 'Fel PIN; nästa kontrolleras om {s} s.', pinwait: 'För många fel PIN från den här adressen; vänta {s} s.',
    restart: 'Enheten startades om: klockorna står. Domaren kontrollerar dem innan de går igen.',
    uncharged: 'Upp till {n} av {c}s betänketid före omstarten kanske inte har räknats{l}.', atleast: ' (minst {m})',
    uncertain: 'Klockornas uppgifter gick förlorade: de står på de senast kända värdena tills domaren startar eller ställer dem.',
    'stopped-player': 'stoppad av spelaren', 'stopped-arbiter': 'stoppad av domaren', 'stopped-claim': 'stoppad för reklamationen', 'stopped-restart': 'stoppad av en omstart', 'stopped-engine': 'stoppad: schackprogrammet saknas',
    relaysent: 'motståndarens drag {m}', plyn: 'halvdrag {p}',
    tc: { moves: '{n} drag på {t}', inc: '{t} + {i} per drag', delay: '{t}, fördröjning {i} per drag', bronstein: '{t}, Bronsteinfördröjning {i} per drag', then: ', sedan ', repeat: ' (upprepas)' },
    none: 'inga', needpin: 'Det här kommandot kräver en PIN.', sent: 'Skickat: {l}', ok: 'Klart',
    clockline: 'Betänketid {t}', low: 'ont om tid',
    actions: 'Vanliga kommandon', 'act-draw': 'Erbjud remi', 'act-claim': 'Reklamera remi',
    'act-approve': 'Godkänn resultatet', 'arbiter-actions': 'För domaren',
    'act-pause': 'Stoppa klockorna', 'act-resume': 'Starta klockorna', 'act-result': 'Ange resultatet',
    'act-uphold': 'Godta reklamationen', 'act-reject': 'Avslå reklamationen', cancel: 'Avbryt',
    'act-seal': 'Kontrollera fair play', 'fp-ok': 'Förseglad: enheten följer fair play-reglerna.', 'fp-breach': 'Reglerna bröts vid drag {m}: {w}', 'fp-start': 'Inte förseglad vid start: {w}', 'fp-now': 'Följs inte nu.', 'fp-none': 'Inget fair play-läge: det mäts i turneringspartier med det riktiga brädet.', 'fp-fix': 'Åtgärd: {f}', 'fp-items': { network: 'Nätverk', radios: 'Radio', 'engine-installed': 'Schackprogram installerat', 'engine-running': 'Schackprogram körs', training: 'Träningsprogram', logins: 'Inloggningar', files: 'Paketfiler', version: 'Version' },
    confirm: 'Skicka', side: 'Sida', kind: 'Slag', threefold: 'Trefaldig upprepning (9.2)',
    fifty: '50-dragsregeln (9.3)', intended: 'Avsett drag (om det inte är spelat än)',
    'draw-text': 'Remierbjudande från {c}. Det noteras vid draget.', 'claim-text': 'Reklamation från {c}, vid draget. Klockorna stannar; domaren avgör.',
    'approve-text': 'Spelarna godkänner resultatet {r}.', 'resume-text': 'Klockorna går igen: {c}s klocka går.',
    'result-text': 'Partiet slutar med detta resultat; klockorna stannar.', result1: 'Resultat', reasonlabel: 'Skäl',
    'uphold-text': 'Reklamationen från {c} godtas: remi.', 'reject-text': 'Reklamationen från {c} avslås; straffet går till motståndaren och klockorna går.',
    'arbiter-only': '(domare)', wrongpin: 'Fel PIN.', toomany: 'För många fel PIN på den här sidan; vänta {s} s.',
    crowded: 'För många adresser provar PIN på den här sidan; vänta {s} s.', reads: 'För många förfrågningar från den här adressen; vänta {s} s.',
    busy: 'Enheten är upptagen; skicka igen om {s} s.',
    unreachable: 'Enheten kan inte nås.', badrequest: 'Begäran avslogs: {e}', refused: 'Avslaget: ',
    legalhint: '{n} tillåtna drag för {c}; de föreslås medan du skriver (Nf3, Sf3 eller g1f3).', notturn: '{c} är vid draget; det som vidarebefordras är motståndarens drag.',
    relayfor: 'Det som vidarebefordras är {c}s drag {n} (halvdrag {p}).', relaycorrect: 'Ett drag som skickas nu rättar {m} (halvdrag {p}) tills motståndaren trycker på klockan; bara den som vidarebefordrade det kan rätta.',
    stale: 'Uppgifterna är gamla: ingen anslutning till enheten sedan {t}. Klockorna på sidan står still.',
    staleserver: 'Uppgifterna är gamla: ingen anslutning till sidan sedan {t}. Klockorna på sidan står still.', notlive: 'inte direkt'
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
    offer: 'Remiseaanbod van {c}', claim: 'Remiseclaim van {c}: {k}', claimopen: 'wacht op de arbiter',
    illegal: 'Onreglementaire zetten: wit {w}, zwart {b}', saving: 'Opslaan mislukt: {e}',
    diagram: 'Diagram van de stelling, wit onderaan; de stukken staan ernaast in een lijst.',
    names: { K: 'Koning', Q: 'Dame', R: 'Toren', B: 'Loper', N: 'Paard', P: 'Pion' },
    'claim-made': 'Claim van {c}: de zet {m} is op het bord uitgevoerd maar nog niet met de klok afgesloten; de claim gaat over de stelling erna en kwam na de zet (de arbiter weegt dat mee, 9.4). De klokken stoppen; de arbiter beslist.',
    'claim-notnow': '{c} kan nu niet claimen: {o} is aan zet (9.2, 9.3: alleen wie aan zet is, mag claimen); het apparaat zou de claim weigeren.',
    'claim-notnowmade': '{c} kan nu niet claimen: {o} heeft een zet op het bord gedaan en de klok nog niet ingedrukt en is dus aan zet (9.2, 9.3); het apparaat zou de claim weigeren.',
    tactile: '{c}, de tastspeler', wrongpinwait: 'Verkeerde pincode; de volgende wordt over {s} s gecontroleerd.', pinwait: 'Te veel verkeerde pincodes van dit adres; wacht {s} s.',
    restart: 'Het apparaat is opnieuw gestart: de klokken staan stil. De arbiter controleert ze voordat ze weer lopen.',
    uncharged: 'Tot {n} bedenktijd van {c} vóór de herstart is mogelijk niet afgetrokken{l}.', atleast: ' (minstens {m})',
    uncertain: 'De gegevens van de klokken zijn verloren: ze staan op de laatst bekende standen tot de arbiter ze start of zet.',
    'stopped-player': 'stilgezet door de speler', 'stopped-arbiter': 'stilgezet door de arbiter', 'stopped-claim': 'stilgezet voor de claim', 'stopped-restart': 'stilgezet door een herstart', 'stopped-engine': 'stilgezet: het schaakprogramma ontbreekt',
    relaysent: 'zet van de tegenstander {m}', plyn: 'halve zet {p}',
    tc: { moves: '{n} zetten in {t}', inc: '{t} + {i} per zet', delay: '{t}, vertraging {i} per zet', bronstein: '{t}, Bronstein-vertraging {i} per zet', then: ', daarna ', repeat: ' (herhaald)' },
    none: 'geen', needpin: 'Deze opdracht vraagt een pincode.', sent: 'Verstuurd: {l}', ok: 'Gedaan',
    clockline: 'Bedenktijd {t}', low: 'weinig tijd',
    actions: 'Veelgebruikte opdrachten', 'act-draw': 'Remise aanbieden', 'act-claim': 'Remise claimen',
    'act-approve': 'Uitslag bevestigen', 'arbiter-actions': 'Voor de arbiter',
    'act-pause': 'Klokken stilzetten', 'act-resume': 'Klokken starten', 'act-result': 'Uitslag invoeren',
    'act-uphold': 'Claim toewijzen', 'act-reject': 'Claim afwijzen', cancel: 'Annuleren',
    'act-seal': 'Fair play controleren', 'fp-ok': 'Verzegeld: het apparaat houdt zich aan de fair play-regels.', 'fp-breach': 'Regels overtreden bij zet {m}: {w}', 'fp-start': 'Niet verzegeld bij de start: {w}', 'fp-now': 'Nu niet nageleefd.', 'fp-none': 'Geen fair play-stand: die wordt gemeten in toernooipartijen met het echte bord.', 'fp-fix': 'Oplossing: {f}', 'fp-items': { network: 'Netwerk', radios: 'Radio', 'engine-installed': 'Schaakprogramma geïnstalleerd', 'engine-running': 'Schaakprogramma draait', training: 'Trainingsprogramma', logins: 'Aanmeldingen', files: 'Pakketbestanden', version: 'Versie' },
    confirm: 'Versturen', side: 'Kant', kind: 'Soort', threefold: 'Drievoudige herhaling (9.2)',
    fifty: 'Vijftigzettenregel (9.3)', intended: 'Bedoelde zet (als die nog niet gespeeld is)',
    'draw-text': 'Remiseaanbod van {c}. Het wordt bij de zet genoteerd.', 'claim-text': 'Claim van {c}, aan zet. De klokken stoppen; de arbiter beslist.',
    'approve-text': 'De spelers bevestigen de uitslag {r}.', 'resume-text': 'De klokken lopen weer: de klok van {c} loopt.',
    'result-text': 'De partij eindigt met deze uitslag; de klokken stoppen.', result1: 'Uitslag', reasonlabel: 'Reden',
    'uphold-text': 'De claim van {c} wordt toegewezen: remise.', 'reject-text': 'De claim van {c} wordt afgewezen; de straf gaat naar de tegenstander en de klokken lopen.',
    'arbiter-only': '(arbiter)', wrongpin: 'Verkeerde pincode.', toomany: 'Te veel verkeerde pincodes op deze pagina; wacht {s} s.',
    crowded: 'Te veel adressen proberen pincodes op deze pagina; wacht {s} s.', reads: 'Te veel verzoeken van dit adres; wacht {s} s.',
    busy: 'Het apparaat is bezig; stuur het over {s} s nog eens.',
    unreachable: 'Het apparaat is niet bereikbaar.', badrequest: 'Het verzoek is geweigerd: {e}', refused: 'Geweigerd: ',
    legalhint: '{n} reglementaire zetten voor {c}; ze worden aangeboden terwijl u typt (Nf3, Pf3 of g1f3).', notturn: '{c} is aan zet; doorgegeven wordt de zet van de tegenstander.',
    relayfor: 'Doorgegeven wordt zet {n} van {c} (halve zet {p}).', relaycorrect: 'Een zet die nu wordt verstuurd corrigeert {m} (halve zet {p}) tot de tegenstander de klok indrukt; alleen wie hem doorgaf, kan dat.',
    stale: 'Gegevens zijn oud: geen verbinding met het apparaat sinds {t}. De klokken op deze pagina staan stil.',
    staleserver: 'Gegevens zijn oud: geen verbinding met de pagina sinds {t}. De klokken op deze pagina staan stil.', notlive: 'niet live'
  }
};
let lang = 'de';
let forcedLang = null;  // ?lang=
let status = null;      // the last /api/status
let statusAt = 0;       // performance.now() when the daemon read the clocks
let moves = [];
let legalMoves = null;  // the last /api/legal
let commandsLoaded = false;
let refreshTimer = null;
// Whether the data is live: the server's last sign of life (performance.now()), what it
// said about the daemon, and when the data was last known live.
let aliveAt = 0;
let daemonUp = true;
let liveUntil = 0;      // the moment the data stopped being live (the clocks stand there)
let heardAt = 0;        // when the daemon was last heard of (the page says since when)
let connKey = null;     // what #conn says, as a key (worded again when the language changes)
let staleSaid = false;

const $ = (id) => document.getElementById(id);
function fill(s, args) {
  for (const k in args || {}) s = s.split('{' + k + '}').join(args[k]);
  return s;
}
function t(key, args) {
  return fill((T[lang] && T[lang][key]) || T.en[key] || key, args);
}
const colorName = (c) => t(c === 'white' ? 'white' : 'black');

// A span of seconds in words: "30 s", "90 min", "2 min 30 s".
function duration(sec) {
  sec = Math.max(0, Math.round(sec));
  if (sec < 60) return sec + ' s';
  return Math.floor(sec / 60) + ' min' + (sec % 60 ? ' ' + (sec % 60) + ' s' : '');
}

// A time control (PGN's TimeControl with delays, docs/scripts.md: "40/5400+30:1800+30",
// "300d5") in the page's words: "40 moves in 90 min + 30 s per move, then 30 min + 30 s per
// move".  Anything else as it is.
function tcWords(tc) {
  const w = t('tc');
  const periods = String(tc || '').split(':');
  const out = [];
  for (let i = 0; i < periods.length; i++) {
    const m = /^(?:(\d+)\/)?(\d+)(?:([+db])(\d+))?$/.exec(periods[i]);
    if (!m) return String(tc);
    let text = duration(+m[2]);
    if (m[3]) text = fill(w[{ '+': 'inc', d: 'delay', b: 'bronstein' }[m[3]]], { t: text, i: duration(+m[4]) });
    if (m[1]) text = fill(w.moves, { n: m[1], t: text }) + (i === periods.length - 1 ? w.repeat : '');
    out.push(text);
  }
  return out.join(w.then);
}

function applyLanguage(l) {
  if (forcedLang) l = forcedLang;
  if (!T[l] || l === lang && document.documentElement.lang === l) return;
  lang = l;
  document.documentElement.lang = l;
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  if (connKey) setConn(connKey, $('conn').classList.contains('down'), true);
  if (commandsLoaded) loadCommands();
  showLegal();
}

// ------------------------------------------------------------------ live or not

const STALE_MS = 6000;   // no sign of life from the server for this long: not live
const OLD_DATA_MS = 5000; // the daemon's last word older than this: not live

function live() {
  return daemonUp && performance.now() - aliveAt < STALE_MS;
}

function clockTime(ms) {
  const d = new Date(Date.now() - (performance.now() - ms));
  return d.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

let everHeard = false;   // the first sign of life has come (until then the page waits)

function checkLive() {
  if (!everHeard && performance.now() - aliveAt < STALE_MS) return;
  if (live()) {
    liveUntil = performance.now();
    if (connKey !== 'connected') {
      const was = staleSaid;
      staleSaid = false;
      setConn('connected', false);
      if (was) soon();
    }
    return;
  }
  // Said once, and again only when the reason changes (the page is back, the device not).
  const key = daemonUp ? 'staleserver' : 'stale';
  if (!staleSaid || connKey !== key) {
    staleSaid = true;
    setConn(key, true);
  }
}

function signOfLife(up, ageMs) {
  everHeard = true;
  aliveAt = performance.now();
  daemonUp = up && ageMs < OLD_DATA_MS;
  if (up) heardAt = Math.max(heardAt, performance.now() - ageMs);
  checkLive();
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
  checkLive();
  const c = status && status.clock;
  const isLive = live();
  for (const side of ['white', 'black']) {
    const el = $('clock-' + side);
    if (!c) {
      el.querySelector('.time').textContent = '–';
      el.querySelector('.state').textContent = '';
      el.classList.remove('running', 'low', 'stale');
      continue;
    }
    let ms = c[side + '_ms'];
    const running = c.running === side && c.state === 'running';
    // Counted down only while the data is live; then it stands at the last live moment.
    if (running) ms -= (isLive ? performance.now() : Math.max(liveUntil, statusAt)) - statusAt;
    el.querySelector('.time').textContent = clockText(ms);
    el.classList.toggle('running', running && isLive);
    el.classList.toggle('low', ms < 60000);
    el.classList.toggle('stale', !isLive);
    // Clocks that stand say who stopped them (a restart, the arbiter, a claim, the player).
    let st = running ? t('running') : c.state === 'paused' ? (c.stopped_by ? t('stopped-' + c.stopped_by) : t('paused')) : t('stopped');
    if (ms <= 0) st = t('flag');
    else if (ms < 60000) st += ', ' + t('low');
    if (!isLive) st += ', ' + t('notlive');
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
  if (s.claim && s.claim.open) out.push([t('claim', { k: t(s.claim.kind), c: colorName(s.claim.by) }) + ', ' + t('claimopen'), true]);
  // After a restart the clocks stand, and the arbiter sees what they may not have charged.
  const c = s.clock || {};
  if (c.state === 'paused' && c.stopped_by === 'restart') {
    let text = t('restart');
    if (c.uncharged_up_to_ms > 0) {
      text += ' ' + t('uncharged', { n: duration(Math.ceil(c.uncharged_up_to_ms / 1000)), c: colorName(c.uncharged_color),
        l: c.uncharged_ms >= 1000 ? t('atleast', { m: duration(Math.floor(c.uncharged_ms / 1000)) }) : '' });
    }
    out.push([text, true]);
  }
  if (c.uncertain) out.push([t('uncertain'), true]);
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

let shownFen = null;
function renderBoard(fen) {
  const key = (fen || '') + ' ' + lang;
  if (key === shownFen) return;
  shownFen = key;
  const box = $('diagram');
  box.textContent = '';
  box.appendChild(Board.svg(fen, t('diagram')));
  const lists = Board.pieces(fen);
  for (const side of ['w', 'b']) {
    const parts = [];
    for (const p of 'KQRBNP') {
      const sqs = lists[side][p];
      if (sqs) parts.push(t('names')[p] + ' ' + sqs.join(', '));
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
  const html = rows.join('');
  if (body.innerHTML !== html) body.innerHTML = html;
}

// The common actions shown when they make sense now.
function renderActions(s) {
  const on = !!(s && s.game);
  const r = (s && s.result) || {};
  const over = !!(r.result && r.result !== '*');
  const c = (s && s.clock) || {};
  const claimOpen = !!(s && s.claim && s.claim.open);
  $('act-draw').hidden = !on || over;
  $('act-claim').hidden = !on || over || claimOpen;
  $('act-approve').hidden = !over || !!r.approved;
  $('act-pause').hidden = !on || over || c.state !== 'running';
  $('act-resume').hidden = !on || over || !c.state || c.state === 'running';
  $('act-result').hidden = !on || over;
  $('act-uphold').hidden = !claimOpen;
  $('act-reject').hidden = !claimOpen;
  $('act-seal').hidden = !on || !!r.approved;
  // No empty boxes: a group without a command that applies now is hidden, and so is the
  // relay field once no move can be relayed.
  const shown = (ids) => ids.some((id) => !$(id).hidden);
  const common = shown(['act-draw', 'act-claim', 'act-approve']);
  const arbiter = shown(['act-pause', 'act-resume', 'act-result', 'act-uphold', 'act-reject', 'act-seal']);
  $('common-actions').hidden = !common;
  $('arbiter-actions').hidden = !arbiter;
  $('actions').hidden = !common && !arbiter;
  $('relay-form').hidden = !on || over;
}

function render(prev) {
  const s = status;
  if (s && s.lang) applyLanguage(s.lang);
  const tags = (s && s.tags) || {};
  const names = [tags.White, tags.Black].filter((n) => n && n !== '?');
  const title = 'annabella' + (names.length === 2 ? ': ' + names[0] + ' – ' + names[1] : '');
  if (document.title !== title) {
    // The players' names each isolated (<bdi>): a right-to-left name keeps its order.
    const h = $('title');
    h.textContent = 'annabella';
    if (names.length === 2) {
      const a = document.createElement('bdi'), b = document.createElement('bdi');
      a.textContent = names[0];
      b.textContent = names[1];
      h.append(': ', a, ' – ', b);
    }
    document.title = title;
  }
  $('state').innerHTML = '';
  for (const [text, alert] of stateLines(s)) {
    const li = document.createElement('li');
    li.textContent = text;
    if (alert) li.className = 'alert';
    $('state').appendChild(li);
  }
  renderBoard(s && s.fen);
  const over = !!(s && s.result && s.result.result && s.result.result !== '*');
  $('to-move').textContent = s && s.to_move && !over ? t('tomove', { c: colorName(s.to_move) }) : '';
  $('clock-line').textContent = s && s.clock ? t('clockline', { t: tcWords(s.clock.time_control) }) : '';
  renderMoves();
  renderActions(s);
  markCommands();
  tick();
  // What changed in the flows is announced; the moves are announced by their words.
  if (prev && s) {
    const before = new Set(stateLines(prev).map((l) => l[0]));
    for (const [text, alert] of stateLines(s)) if (alert && !before.has(text)) announce(text);
  }
}

// A line in the announcements' live region; parts: [{lang, text}] (Appendix D words are
// German whatever the page's language, and a screen reader must read them so).
function announce(text, parts) {
  const p = document.createElement('p');
  if (parts && parts.length) {
    for (const part of parts) {
      if (part.lang && part.lang !== lang) {
        const span = document.createElement('span');
        span.lang = part.lang;
        span.textContent = part.text;
        p.appendChild(span);
      } else {
        p.appendChild(document.createTextNode(part.text));
      }
    }
  } else {
    p.textContent = text;
  }
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
    loadLegal();
  } catch (e) {
    daemonUp = daemonUp && performance.now() - aliveAt < STALE_MS;
    checkLive();
  }
}

function soon() {
  if (!refreshTimer) refreshTimer = setTimeout(refresh, 20);
}

// #conn is a live region: set only when what it says changes.
function setConn(key, down, again) {
  const text = key === 'stale' || key === 'staleserver' ? t(key, { t: clockTime(heardAt) }) : t(key);
  connKey = key;
  if (again || $('conn').textContent !== text) $('conn').textContent = text;
  $('conn').classList.toggle('down', !!down);
}

let es = null;

function connect() {
  if (es) es.close();
  es = new EventSource('/api/events');
  es.addEventListener('hello', () => { signOfLife(true, 0); soon(); });
  es.addEventListener('reset', soon);
  es.addEventListener('alive', (e) => {
    let a = {};
    try { a = JSON.parse(e.data); } catch (err) { return; }
    signOfLife(!!a.up, +a.age_ms || 0);
  });
  es.onmessage = (e) => {
    let ev;
    try { ev = JSON.parse(e.data); } catch (err) { return; }
    if (ev.event === 'daemon') {
      signOfLife(!!ev.up, 0);
    } else {
      signOfLife(true, 0);
      if (ev.event === 'say' && ev.channel === 'public') announce(ev.text, ev.parts);
    }
    soon();
  };
  // The browser tries again by itself; until then the data is old (checkLive says so).
  es.onerror = () => { aliveAt = Math.min(aliveAt, performance.now() - STALE_MS); checkLive(); };
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
    const was = sel.value;
    sel.innerHTML = '';
    commands = r.commands.filter((c) => !c.session);
    commands.forEach((c, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = c.usage + (c.role === 'arbiter' ? ' ' + t('arbiter-only') : '');
      sel.appendChild(o);
    });
    if (was && sel.options[+was]) sel.value = was;
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
    // over, unless a rule left its result to the arbiter ("*": arbiter_decides)
    if (n === 'undecided' && (r === 'approved' || (r === 'ended' && !s.result.arbiter_decides))) return false;
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

// The moves the assistant may relay, offered as they type: in the page's piece letters
// (Appendix C, the local notation of /api/legal?lang=), with SAN and UCI.
let legalFen = null;    // the position and language of legalMoves: "FEN lang"
let legalBusy = false;
async function loadLegal() {
  if (!status || !status.fen || status.fen + ' ' + lang === legalFen || legalBusy) return;
  legalBusy = true;
  const fen = status.fen, asked = lang;
  try {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 5000);
    const j = await (await fetch('/api/legal?lang=' + asked, { cache: 'no-store', signal: ctl.signal })).json();
    clearTimeout(timer);
    legalMoves = j.ok ? j : null;
    legalFen = j.ok ? j.fen + ' ' + asked : null;
  } catch (e) {
    legalMoves = null;
    legalFen = null;
  }
  legalBusy = false;
  showLegal();
  // The position or the language moved on meanwhile, or the answer did not come: again.
  if (!legalFen || (status && status.fen + ' ' + lang !== legalFen && status.fen !== fen)) setTimeout(loadLegal, 500);
  else if (lang !== asked) loadLegal();
}

// The ply a relayed move is for, as the page shows it: the opponent's next move, or, with
// the tactile player to move, the opponent's last one (a correction before their press).
// It is fixed once the assistant starts typing: the page sends the ply it showed, so a move
// someone else relayed meanwhile is refused by the daemon, never replaced (README, Control interface: `move`).
let relayFixed = null;
function relayTarget() {
  if (!status || !status.game || !status.player || !status.fen) return null;
  const f = status.fen.split(' ');
  const n = parseInt(f[5], 10) || 1;
  if (status.to_move !== status.player) return { ply: status.plies + 1, n, c: status.to_move, correct: false };
  if (!status.plies) return null;
  const c = status.to_move === 'white' ? 'black' : 'white';
  const ln = c === 'black' ? n - 1 : n;
  const san = status.last_move ? status.last_move.san : '';
  return { ply: status.plies, n: ln, c, correct: true, m: ln + (c === 'black' ? '... ' : '. ') + san };
}

function showLegal() {
  const list = $('legal'), hint = $('relay-hint');
  if (!list) return;
  list.textContent = '';
  if (!legalMoves || !status) { hint.textContent = ''; return; }
  const target = relayFixed || relayTarget();
  for (const m of legalMoves.moves) {
    const o = document.createElement('option');
    o.value = m.local;
    o.label = (m.san !== m.local ? m.san + ' · ' : '') + m.uci;
    list.appendChild(o);
  }
  const opponentToMove = status.player && legalMoves.to_move !== status.player;
  let text = opponentToMove
    ? t('legalhint', { n: legalMoves.moves.length, c: colorName(legalMoves.to_move) })
    : t('notturn', { c: colorName(legalMoves.to_move) });
  if (target && target.correct) text += ' ' + t('relaycorrect', { m: Board.localSan(target.m, lang), p: target.ply });
  else if (target) text += ' ' + t('relayfor', { n: target.n, c: colorName(target.c), p: target.ply });
  hint.textContent = text;
}

// The reply in the page's words: the daemon's by its code and arguments (codes.js); the web
// process's own refusals by their HTTP status; a reply whose code this page does not know,
// as the daemon gives it (in English, marked so).
function replyWords(httpStatus, j) {
  if (j && j.code && typeof replyText === 'function') {
    const text = replyText(lang, j.code, j.args || {});
    if (text !== null) return { text, coded: true };
  }
  // Every wait says how long (the JSON's seconds, as its Retry-After), in the page's own
  // words when the replies' words did not come.
  const wait = { s: j && j.seconds ? j.seconds : (j && j.args && j.args.seconds) || 1 };
  if (httpStatus === 401) return { text: t('needpin') };
  if (httpStatus === 403) return { text: t(j && j.code === 'wrong-pin-wait' ? 'wrongpinwait' : 'wrongpin', wait) };
  if (httpStatus === 429) {
    const why = j && (j.reason === 'addresses' ? 'crowded' : j.reason === 'reads' ? 'reads' : j.reason === 'total' ? 'toomany' : '');
    return { text: t(why || 'pinwait', wait) };
  }
  if (httpStatus === 503) return { text: t(j && j.reason === 'busy' ? 'busy' : 'unreachable', wait) };
  if (httpStatus >= 400) return { text: t('badrequest', { e: '' }), daemon: j && j.error };
  return { text: j.ok ? '' : t('refused'), daemon: j.ok ? (j.text && !j.format ? j.text : '') : j.error };
}

// The words of the replies (codes.js, its size as sent in docs/web.md) are fetched only by a
// page that gives commands: when a PIN is typed or a command sent.
let codesLoading = null;
function loadCodes() {
  if (!codesLoading) {
    codesLoading = new Promise((resolve) => {
      const s = document.createElement('script');
      s.src = '/codes.js';
      s.onload = () => resolve(true);
      s.onerror = () => { codesLoading = null; s.remove(); resolve(false); };
      document.head.appendChild(s);
    });
  }
  return codesLoading;
}

// This browser's own word for the daemon (a random one, kept): two phones with the same
// PIN are two relayers, so one cannot take the other's relayed move for a correction.
const PAGE_ID = (() => {
  const fresh = () => {
    const a = new Uint32Array(2);
    crypto.getRandomValues(a);
    return 'p' + a[0].toString(36) + a[1].toString(36).slice(0, 4);
  };
  try {
    let id = localStorage.getItem('annabella-page');
    if (!id || !/^[a-z0-9]{1,16}$/.test(id)) {
      id = fresh().slice(0, 16);
      localStorage.setItem('annabella-page', id);
    }
    return id;
  } catch (e) {
    return fresh().slice(0, 16);
  }
})();

async function send(line, label) {
  const pin = $('pin').value.trim();
  const reply = $('reply');
  const text = $('reply-text');
  text.hidden = true;
  reply.classList.remove('error');
  try {
    const headers = { 'Content-Type': 'text/plain; charset=utf-8' };
    if (pin) {
      headers['X-PIN'] = pin;
      headers['X-Page'] = PAGE_ID;
      // The moves typed are in the page's piece letters (the Dutch Pf3 a knight's move).
      headers['X-Lang'] = lang;
    }
    const words = loadCodes();
    const r = await fetch('/api/command', { method: 'POST', headers, body: line });
    let j = {};
    try { j = await r.json(); } catch (e) { j = { ok: false }; }
    await words;
    const w = replyWords(r.status, j);
    const said = w.coded ? (j.ok ? '' : t('refused')) + w.text : j.ok && !w.daemon ? t('ok') : w.text;
    reply.textContent = t('sent', { l: label || line }) + ': ' + said;
    if (w.daemon) {
      const span = document.createElement('span');
      span.lang = 'en';
      span.textContent = w.daemon;
      reply.appendChild(span);
    }
    if (j.ok) {
      const detail = line === 'status' && 'fairplay' in j ? fairplayText(j.fairplay)
        : j.format ? j.text : j.moves || j.commands || j.game || j.agree !== undefined ? JSON.stringify(j, null, 1) : '';
      if (detail) { text.textContent = detail; text.hidden = false; }
      soon();
    } else {
      reply.classList.add('error');
    }
    return !!j.ok;
  } catch (e) {
    reply.textContent = t('sent', { l: label || line }) + ': ' + t('unreachable');
    reply.classList.add('error');
    return false;
  }
}

// The device's fair-play state as the arbiter's status has it (docs/fairplay.md "Fair play"):
// the verdict over the game, then each item, as the seal and the menu at the board give it.
// What was found and its fix are the device's words (English).
function fairplayText(f) {
  if (!f) return t('fp-none');
  const lines = [f.breach ? (f.breach_move > 0 ? t('fp-breach', { m: f.breach_move, w: f.breach_what })
    : t('fp-start', { w: f.breach_what })) : t('fp-ok')];
  if (!f.ok) lines.push(t('fp-now'));
  for (const it of f.items || []) {
    lines.push((it.ok ? '✓ ' : '✗ ') + (t('fp-items')[it.item] || it.item) + ': ' + it.what +
      (it.fix ? ' (' + t('fp-fix', { f: it.fix }) + ')' : ''));
  }
  return lines.join('\n');
}

// ------------------------------------------------------------------ one-press actions

function radios(name, legend, options, chosen) {
  const fs = document.createElement('fieldset');
  const lg = document.createElement('legend');
  lg.textContent = legend;
  fs.appendChild(lg);
  for (const [value, label] of options) {
    const id = 'c-' + name + '-' + value.replace(/[^a-z0-9]/gi, '');
    const p = document.createElement('p');
    p.className = 'choice';
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = name;
    input.id = id;
    input.value = value;
    input.checked = value === chosen;
    input.required = true;
    const l = document.createElement('label');
    l.htmlFor = id;
    l.textContent = label;
    p.append(input, l);
    fs.appendChild(p);
  }
  return fs;
}

function textField(name, label, required) {
  const p = document.createElement('p');
  p.className = 'field';
  const l = document.createElement('label');
  l.htmlFor = 'c-' + name;
  l.textContent = label;
  const input = document.createElement('input');
  input.id = 'c-' + name;
  input.name = name;
  input.autocomplete = 'off';
  input.required = !!required;
  p.append(l, input);
  return p;
}

let confirmLine = null;
let confirmLabel = null;
let confirmReturn = null;

// A confirmation before a command a slip would matter for: the dialog says what will be
// sent; line(form) builds the command from its fields.
function ask(title, text, fields, line) {
  confirmLabel = title;
  const d = $('confirm');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-ok').textContent = t('confirm');
  const box = $('confirm-fields');
  box.textContent = '';
  for (const f of fields) box.appendChild(f);
  confirmLine = line;
  confirmReturn = document.activeElement;
  d.showModal();
  // The chosen radio button, not the first: Enter sends what the dialog says.
  const first = box.querySelector('input:checked') || box.querySelector('input') || $('confirm-ok');
  first.focus();
}

function closeConfirm() {
  const d = $('confirm');
  if (d.open) d.close();
}

const lastMover = () => status && status.to_move ? (status.to_move === 'white' ? 'black' : 'white') : 'white';
const sides = () => [['white', t('white')], ['black', t('black')]];
// The sides with the tactile player named ("White, the tactile player").
const playerSides = () => sides().map(([v, l]) => [v, status && status.player === v ? t('tactile', { c: l }) : l]);

// The last ply's name in the page's letters ("12... Sf6"), as the daemon's replies say it.
function lastPlyName() {
  if (!status || !status.last_move || !status.fen) return '';
  const n = parseInt(status.fen.split(' ')[5], 10) || 1;
  const black = status.to_move === 'white';
  return (black ? n - 1 + '... ' : n + '. ') + Board.localSan(status.last_move.san, lang);
}

// What a claim by `side` is now, as the daemon takes it (docs/control.md "Control interface",
// `claim`): only the player on move may claim (9.2, 9.3), and with a clock that is the side
// whose move is made on the board and not yet completed by its press (status.on_move), so a
// claim then is about the position after that move.
const onMove = () => status.on_move || { color: status.to_move, made: false };
function claimText(side) {
  const on = onMove();
  const c = colorName(side), o = colorName(on.color);
  if (side !== on.color) return t(on.made ? 'claim-notnowmade' : 'claim-notnow', { c, o });
  return on.made ? t('claim-made', { c, m: lastPlyName() }) : t('claim-text', { c });
}

// The claim: the side chosen (the tactile player's first, for whom an assistant claims; the
// arbiter chooses, as for a draw offer) is sent, and the dialog says what the daemon will
// make of it; an intended move only while the claimant's move is not made.
function askClaim() {
  const first = status.player || status.to_move;
  const side = radios('side', t('side'), playerSides(), first);
  const intended = textField('move', t('intended'), false);
  const made = (chosen) => onMove().made && chosen === onMove().color;
  intended.hidden = made(first);
  // Another side chosen: the text (a polite live region) says what that claim would be.
  side.addEventListener('change', () => {
    const chosen = side.querySelector('input:checked').value;
    $('confirm-text').textContent = claimText(chosen);
    intended.hidden = made(chosen);
    if (intended.hidden) intended.querySelector('input').value = '';
  });
  ask(t('act-claim'), claimText(first), [side, radios('kind', t('kind'), [['threefold', t('threefold')], ['fifty', t('fifty')]], 'threefold'), intended],
    (f) => 'claim ' + f.kind.value + ' ' + f.side.value + (f.move.value.trim() ? ' ' + f.move.value.trim() : ''));
}

const ACTIONS = {
  'act-draw': () => ask(t('act-draw'), t('draw-text', { c: colorName(lastMover()) }),
    [radios('side', t('side'), sides(), lastMover())], (f) => 'draw-offer ' + f.side.value),
  'act-claim': askClaim,
  'act-approve': () => ask(t('act-approve'), t('approve-text', { r: (status.result || {}).result || '' }), [], () => 'approve'),
  'act-pause': () => send('pause', t('act-pause')),
  'act-resume': () => ask(t('act-resume'), t('resume-text', { c: colorName((status.clock || {}).running || status.to_move) }), [], () => 'resume'),
  'act-result': () => ask(t('act-result'), t('result-text'),
    [radios('result', t('result1'), [['1-0', '1-0'], ['0-1', '0-1'], ['1/2-1/2', '½-½']], null),
      textField('reason', t('reasonlabel'), true)],
    (f) => 'result ' + f.result.value + ' ' + f.reason.value.trim()),
  'act-uphold': () => ask(t('act-uphold'), t('uphold-text', { c: colorName(status.claim.by) }), [], () => 'claim uphold'),
  'act-seal': () => send('status', t('act-seal')),
  'act-reject': () => ask(t('act-reject'), t('reject-text', { c: colorName(status.claim.by) }), [], () => 'claim reject'),
};

document.addEventListener('DOMContentLoaded', () => {
  const q = /[?&]lang=([a-z]{2})/.exec(location.search);
  if (q && T[q[1]]) forcedLang = q[1];
  lang = '';
  applyLanguage(document.documentElement.lang || 'de');
  $('command').addEventListener('change', showUsage);
  $('pin').addEventListener('input', loadCodes);
  $('relay-move').addEventListener('input', () => {
    if (!$('relay-move').value.trim()) relayFixed = null;
    else if (!relayFixed) relayFixed = relayTarget();
  });
  $('relay-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const m = $('relay-move').value.trim();
    const target = relayFixed || relayTarget();
    relayFixed = null;
    // Said in the page's words: the move as typed and its ply, not the protocol's line.
    const label = t('relaysent', { m }) + (target ? ' (' + t('plyn', { p: target.ply }) + ')' : '');
    if (m && await send('move ' + (target ? target.ply + ' ' : '') + m, label)) $('relay-move').value = '';
    showLegal();
  });
  $('command-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const c = commands[+$('command').value];
    const args = $('args').value.trim();
    if (c) send(c.name + (args ? ' ' + args : ''));
  });
  for (const id in ACTIONS) $(id).addEventListener('click', ACTIONS[id]);
  $('confirm-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const form = $('confirm-form');
    if (!form.reportValidity()) return;
    const f = form.elements;
    const line = confirmLine(f);
    closeConfirm();
    send(line, confirmLabel);
  });
  $('confirm-cancel').addEventListener('click', closeConfirm);
  $('confirm').addEventListener('close', () => {
    if (confirmReturn && confirmReturn.focus) confirmReturn.focus();
  });
  renderActions(null);
  aliveAt = liveUntil = heardAt = performance.now();
  setInterval(tick, 100);
  // A page left open catches up on its own: the status every 30 s besides every event.
  setInterval(soon, 30000);
  connect();
  refresh();
  // A page the browser keeps for Back (bfcache) gives its stream up, so it holds none of the
  // few connections a browser allows a server; shown again, it follows the daemon again.
  window.addEventListener('pagehide', () => { if (es) { es.close(); es = null; } });
  window.addEventListener('pageshow', (e) => { if (e.persisted) { connect(); soon(); } });
});
