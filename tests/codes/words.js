// The page's words for the daemon's reply codes (web/codes.js) against the replies' table
// (`annabella codes`, game/replies.c) and docs/control.md: every code with a wording has its
// words in de, en, sv and nl; no words for a code the table does not have; every argument
// a translation names is one of its code's, an optional one only inside an optional part;
// every translation worded with its arguments leaves no mark; the words of the protocol
// (colours, claim kinds, modes, roles, what did not fit, why a move is not legal, a press's
// kind) in every language, and no side named by its protocol word (white, black) in the words
// of de, sv and nl; the moves among the arguments in each language's piece letters (board.js
// beside codes.js); every code in its table.  Usage: node words.js
// CODES.jsonl CODES.js docs/control.md.  Prints "codes: N passed, M failed".
'use strict';
const fs = require('fs');
const vm = require('vm');

const [table, script, readme] = process.argv.slice(2);
const rows = fs.readFileSync(table, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const ctx = {};
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(require('path').join(require('path').dirname(script), 'board.js'), 'utf8'), ctx);
vm.runInContext(fs.readFileSync(script, 'utf8') +
  '\nthis.REPLY_WORDS = REPLY_WORDS; this.REPLY_VALUES = REPLY_VALUES; this.replyText = replyText;', ctx);
const readmeText = fs.readFileSync(readme, 'utf8');
const LANGS = ['de', 'en', 'sv', 'nl'];
const VALUES = ['white', 'black', 'threefold', 'fifty', 'tournament', 'casual', 'assistant', 'arbiter',
  'player', 'offer', 'claim', 'resignation', 'move', 'rollback', 'ruling', 'syntax', 'no-such-move',
  'ambiguous', 'promotion-piece', 'press:empty', 'press:illegal', 'press:move', 'press:paused', 'takeback',
  'end:normal', 'end:missing', 'end:died', 'end:hung', 'end:nonsense'];
let passed = 0;
let failed = 0;
function check(what, ok) {
  if (ok) passed++;
  else {
    failed++;
    console.log('codes: FAILED ' + what);
  }
}

const worded = rows.filter((r) => r.wording !== null);
check('the table has codes', worded.length > 50);
// The documentation's section lists every code of the table.
const section = readmeText.slice(readmeText.search(/^#+ Reply codes/m));
check('the documentation has a section "Reply codes"', /^#+ Reply codes/m.test(readmeText));
for (const r of rows) check(`the documentation lists ${r.code}`, section.includes('`' + r.code + '`'));

for (const lang of LANGS) {
  const words = ctx.REPLY_WORDS[lang] || {};
  for (const v of VALUES) check(`${lang}: the word for ${v}`, typeof (ctx.REPLY_VALUES[lang] || {})[v] === 'string');
  for (const code of Object.keys(words)) check(`${lang}: ${code} is a code of the table`, worded.some((r) => r.code === code));
  for (const r of worded) {
    const w = words[r.code];
    if (typeof w !== 'string') {
      check(`${lang}: words for ${r.code}`, false);
      continue;
    }
    const optional = new Set(r.optional);
    const all = new Set(r.args);
    // Marks outside and inside optional parts.
    const parts = w.match(/\[[^\]{]*\{[^\]]*\]/g) || [];
    const outside = w.replace(/\[[^\]{]*\{[^\]]*\]/g, '');
    const keys = (text) => [...text.matchAll(/\{(\w+)(?:\|[^|}]*\|[^}]*)?\}/g)].map((m) => m[1]);
    const bad = keys(outside).filter((k) => !all.has(k) || optional.has(k))
      .concat(parts.flatMap(keys).filter((k) => !all.has(k)));
    check(`${lang}: ${r.code} names only its arguments (${bad.join(', ')})`, bad.length === 0);
    // The sides in the page's words ("Weiß oder Schwarz"), never the protocol's in another
    // language's sentence.
    if (lang !== 'en') {
      const protocol = w.replace(/\{[^}]*\}/g, '').match(/\b(white|black)\b/g);
      check(`${lang}: ${r.code} names the sides in its language (${protocol})`, !protocol);
    }
    const sample = {};
    for (const k of r.args) sample[k] = k.endsWith('color') ? 'white' : /^(ply|plies|count|max|agree|next|first|later|last)$|_plies$|_number$|_ms$/.test(k) ? 2 : 'x';
    const full = ctx.replyText(lang, r.code, sample);
    check(`${lang}: ${r.code} worded with all its arguments`, typeof full === 'string' && full.length > 0 && !/[{}]/.test(full));
    const required = {};
    for (const k of r.args) if (!optional.has(k)) required[k] = sample[k];
    const part = ctx.replyText(lang, r.code, required);
    check(`${lang}: ${r.code} worded without its optional arguments`, typeof part === 'string' && !/[{}]/.test(part));
  }
}
// A move among the arguments in the page's piece letters, as the page offers it; the move
// someone typed as typed.
const relayed = { de: '12. Sf3 weitergegeben.', en: '12. Nf3 relayed.', sv: '12. Sf3 vidarebefordrat.', nl: '12. Pf3 doorgegeven.' };
for (const lang of LANGS) {
  const got = ctx.replyText(lang, 'relayed', { ply: 23, name: '12. Nf3' });
  check(`${lang}: a relayed move in the page's piece letters (${got})`, got === relayed[lang]);
  const typed = ctx.replyText(lang, 'not-legal', { move: 'Nf9', color: 'white', why: 'syntax', detail: 'x' });
  check(`${lang}: a move as typed stays as typed (${typed})`, typed.includes('Nf9'));
}
console.log(`codes: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
