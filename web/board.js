// A chess position as an SVG diagram, White at the bottom, for the assistant's page and the
// room page.  The diagram is an image with a text alternative (the pieces in words, which
// the page gives in its language); the squares, coordinates and pieces inside it are
// hidden from screen readers.  No library, nothing from the internet.
'use strict';
var Board = (function () {
  var NS = 'http://www.w3.org/2000/svg';
  var GLYPH = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659',
    k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f' };
  var ORDER = 'KQRBNP';
  var SQ = 40, EDGE = 16;

  // The pieces of a FEN's placement: { w: { K: ['g1'], ... }, b: { ... } }, squares sorted.
  function pieces(fen) {
    var out = { w: {}, b: {} };
    var rows = String(fen || '8/8/8/8/8/8/8/8').split(' ')[0].split('/');
    rows.forEach(function (row, r) {
      var file = 0;
      for (var i = 0; i < row.length; i++) {
        var ch = row[i];
        if (/\d/.test(ch)) { file += +ch; continue; }
        var side = ch === ch.toUpperCase() ? 'w' : 'b', p = ch.toUpperCase();
        (out[side][p] = out[side][p] || []).push('abcdefgh'[file] + (8 - r));
        file++;
      }
    });
    ['w', 'b'].forEach(function (s) {
      for (var p in out[s]) out[s][p].sort();
    });
    return out;
  }

  // The pieces in words: names is { K: 'King', ... }; "White: King g1; Pawn a2, b2".
  function describe(fen, names, white, black, none) {
    var list = pieces(fen);
    return ['w', 'b'].map(function (s) {
      var parts = [];
      for (var i = 0; i < ORDER.length; i++) {
        var sqs = list[s][ORDER[i]];
        if (sqs) parts.push(names[ORDER[i]] + ' ' + sqs.join(', '));
      }
      return (s === 'w' ? white : black) + ': ' + (parts.join('; ') || none);
    }).join('. ');
  }

  function el(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The diagram: an <svg role="img"> named by label (and its <title>).  It scales to its
  // container's width (CSS), so it never makes a page scroll sideways.
  function svg(fen, label) {
    var size = EDGE + 8 * SQ;
    var s = el('svg', { viewBox: '0 0 ' + size + ' ' + (size), role: 'img',
      'aria-label': label, class: 'diagram', focusable: 'false' });
    s.appendChild(el('title', {}, label));
    var g = el('g', { 'aria-hidden': 'true' });
    var rows = String(fen || '8/8/8/8/8/8/8/8').split(' ')[0].split('/');
    for (var r = 0; r < 8; r++) {
      g.appendChild(el('text', { x: EDGE / 2, y: r * SQ + SQ / 2 + 5, 'text-anchor': 'middle',
        class: 'coord' }, String(8 - r)));
      g.appendChild(el('text', { x: EDGE + r * SQ + SQ / 2, y: 8 * SQ + EDGE - 3,
        'text-anchor': 'middle', class: 'coord' }, 'abcdefgh'[r]));
      var file = 0, row = rows[r] || '8';
      for (var i = 0; i < row.length && file < 8; i++) {
        var ch = row[i], n = /\d/.test(ch) ? +ch : 1;
        for (var k = 0; k < n && file < 8; k++, file++) {
          var x = EDGE + file * SQ, y = r * SQ;
          g.appendChild(el('rect', { x: x, y: y, width: SQ, height: SQ,
            class: (file + r) % 2 ? 'dark' : 'light' }));
          if (!/\d/.test(ch)) {
            g.appendChild(el('text', { x: x + SQ / 2, y: y + SQ * 0.8, 'text-anchor': 'middle',
              class: 'piece' }, GLYPH[ch] || '?'));
          }
        }
      }
    }
    s.appendChild(g);
    return s;
  }

  // SAN (or a ply's name, "12. Nf3") with a language's piece letters, FIDE Appendix C, as the
  // daemon reads them back (docs/control.md "Control interface": `notation`).
  var LETTERS = { en: 'KQRBN', de: 'KDTLS', sv: 'KDTLS', nl: 'KDTLP' };
  function localSan(san, lang) {
    var to = LETTERS[lang] || LETTERS.en;
    return String(san).replace(/[KQRBN]/g, function (c) { return to['KQRBN'.indexOf(c)]; });
  }

  return { pieces: pieces, describe: describe, svg: svg, localSan: localSan };
})();
