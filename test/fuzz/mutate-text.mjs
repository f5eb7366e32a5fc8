/**
 * Mutations at the text level: lines, indentation, YAML syntax features, encodings and bytes.
 * Each takes the manifest text (or, for BYTE_MUTATIONS, its bytes) and returns the new one with a
 * description, or null when it does not apply.
 */

/** @typedef {import('./rng.mjs').Rng} Rng */

const lines = (/** @type {string} */ t) => t.split('\n');
/** A line with content (not blank): the likelier to matter. */
function contentLine(rng, ls) {
  const idx = ls.map((l, i) => (l.trim() ? i : -1)).filter((i) => i >= 0);
  return idx.length ? rng.pick(idx) : -1;
}

/** @type {Record<string, (text: string, rng: Rng) => [string, string] | null>} */
export const TEXT_MUTATIONS = {
  deleteLine(text, rng) {
    const ls = lines(text);
    const i = contentLine(rng, ls);
    if (i < 0) return null;
    const n = rng.chance(0.8) ? 1 : rng.int(2, 10);
    ls.splice(i, n);
    return [ls.join('\n'), `delete line ${i + 1}${n > 1 ? ` (+${n - 1})` : ''}`];
  },
  duplicateLine(text, rng) {
    const ls = lines(text);
    const i = contentLine(rng, ls);
    if (i < 0) return null;
    ls.splice(i, 0, /** @type {string} */ (ls[i]));
    return [ls.join('\n'), `duplicate line ${i + 1}`];
  },
  swapLines(text, rng) {
    const ls = lines(text);
    const i = contentLine(rng, ls);
    const j = contentLine(rng, ls);
    if (i < 0 || i === j) return null;
    [ls[i], ls[j]] = [/** @type {string} */ (ls[j]), /** @type {string} */ (ls[i])];
    return [ls.join('\n'), `swap lines ${i + 1} and ${j + 1}`];
  },
  indent(text, rng) {
    const ls = lines(text);
    const i = contentLine(rng, ls);
    if (i < 0) return null;
    const l = /** @type {string} */ (ls[i]);
    const how = rng.pick(['+1', '+2', '-1', '-2', 'tab', 'zero', '+40']);
    ls[i] =
      how === '+1'
        ? ` ${l}`
        : how === '+2'
          ? `  ${l}`
          : how === '+40'
            ? `${' '.repeat(40)}${l}`
            : how === '-1'
              ? l.replace(/^ /, '')
              : how === '-2'
                ? l.replace(/^ {2}/, '')
                : how === 'tab'
                  ? l.replace(/^( *)/, (m) => `\t${m.slice(2)}`)
                  : l.trimStart();
    return [ls.join('\n'), `indent line ${i + 1} ${how}`];
  },
  truncate(text, rng) {
    if (!text.length) return null;
    const at = rng.int(0, text.length - 1);
    return [text.slice(0, at), `truncate at ${at}/${text.length}`];
  },
  insertChars(text, rng) {
    const at = rng.int(0, text.length);
    const s = rng.pick([
      ':',
      ': ',
      '-',
      '- ',
      '[',
      ']',
      '{',
      '}',
      ',',
      '#',
      '&',
      '*',
      '!',
      '|',
      '>',
      '%',
      '@',
      '`',
      '"',
      "'",
      '?',
      '\\',
      '\t',
      '\r',
      '\u0000',
      '\u0007',
      '\u001b',
      '\u00a0',
      '\u2028',
      '\u200b',
      '\ufeff',
      '\ud800',
      '🙂',
      'é',
      '\u0085',
    ]);
    return [text.slice(0, at) + s + text.slice(at), `insert ${JSON.stringify(s)} at ${at}`];
  },
  bom(text) {
    return [`\ufeff${text}`, 'BOM'];
  },
  crlf(text, rng) {
    const style = rng.pick(['\r\n', '\r', 'mixed']);
    if (style === 'mixed')
      return [
        text
          .split('\n')
          .map((l, i) => (i % 2 ? `${l}\r` : l))
          .join('\n'),
        'line endings mixed CRLF/LF',
      ];
    return [text.replace(/\n/g, style), `line endings ${JSON.stringify(style)}`];
  },
  trailingSpace(text, rng) {
    return [
      text.replace(/\n/g, () => (rng.chance(0.3) ? `${rng.pick([' ', '\t', '  '])}\n` : '\n')),
      'trailing whitespace',
    ];
  },
  noFinalNewline(text) {
    return [text.replace(/\n+$/, ''), 'no final newline'];
  },
  comment(text, rng) {
    const ls = lines(text);
    const i = contentLine(rng, ls);
    if (i < 0) return null;
    const where = rng.pick(['eol', 'eolNoSpace', 'own', 'ownIndented']);
    const l = /** @type {string} */ (ls[i]);
    if (where === 'eol') ls[i] = `${l} # fuzz`;
    else if (where === 'eolNoSpace') ls[i] = `${l}# fuzz`;
    else ls.splice(i, 0, where === 'own' ? '# fuzz' : `${' '.repeat(rng.int(1, 12))}# fuzz`);
    return [ls.join('\n'), `comment ${where} at line ${i + 1}`];
  },
  documentMarkers(text, rng) {
    const how = rng.pick(['start', 'end', 'second', 'directive', 'empty-second', 'middle']);
    if (how === 'start') return [`---\n${text}`, 'starts with ---'];
    if (how === 'end') return [`${text}\n...\n`, 'ends with ...'];
    if (how === 'second') return [`${text}\n---\n${text}`, 'two documents'];
    if (how === 'empty-second') return [`${text}\n---\n`, 'an empty second document'];
    if (how === 'directive')
      return [
        `${rng.pick(['%YAML 1.1', '%YAML 1.2', '%YAML 2.0', '%TAG ! tag:example.com,2026:'])}\n---\n${text}`,
        'a directive',
      ];
    const ls = lines(text);
    const i = rng.int(0, ls.length);
    ls.splice(i, 0, rng.pick(['---', '...', '--- # c', '---x']));
    return [ls.join('\n'), `document marker at line ${i + 1}`];
  },
  /** `key: value` → `key: |` / `>-` block scalar (or anchor/tag before it). */
  blockScalar(text, rng) {
    const ls = lines(text);
    const cands = ls.map((l, i) => (/^\s*[\w$.-]+: [^{[\s|>&*!#][^#]*$/.test(l) ? i : -1)).filter((i) => i >= 0);
    if (!cands.length) return null;
    const i = rng.pick(cands);
    const l = /** @type {string} */ (ls[i]);
    const m = /^(\s*)([\w$.-]+): (.*)$/.exec(l);
    if (!m) return null;
    const head = rng.pick(['|', '>', '|-', '>+', '|2', '>-']);
    ls.splice(i, 1, `${m[1]}${m[2]}: ${head}`, `${m[1]}  ${m[3]}`, ...(rng.chance(0.3) ? [`${m[1]}   more text`] : []));
    return [ls.join('\n'), `block scalar ${head} at line ${i + 1}`];
  },
  /** A one-line flow collection written over several lines. */
  flowOverLines(text, rng) {
    const ls = lines(text);
    const cands = ls.map((l, i) => (/[{[].*,.*[}\]]/.test(l) ? i : -1)).filter((i) => i >= 0);
    if (!cands.length) return null;
    const i = rng.pick(cands);
    const l = /** @type {string} */ (ls[i]);
    const pad = /^\s*/.exec(l)?.[0] ?? '';
    ls[i] = l.replace(/, /g, () => (rng.chance(0.5) ? `,\n${pad}${rng.pick(['  ', '', '    ', ' '])}` : ', '));
    if (rng.chance(0.2)) ls[i] = ls[i].replace(/([}\]])$/, ',$1');
    return [ls.join('\n'), `flow collection over lines at line ${i + 1}`];
  },
  /** An anchor on one value and an alias (or a merge key) somewhere after it, by text. */
  anchorAlias(text, rng) {
    const ls = lines(text);
    const cands = ls.map((l, i) => (/^\s*[\w$.-]+:(\s|$)/.test(l) ? i : -1)).filter((i) => i >= 0);
    if (cands.length < 2) return null;
    const a = rng.pick(cands);
    const b = rng.pick(cands);
    const la = /** @type {string} */ (ls[a]);
    ls[a] = la.replace(/^(\s*[\w$.-]+:)(\s|$)/, '$1 &fz$2');
    const lb = /** @type {string} */ (ls[b]);
    const kind = rng.pick(['alias', 'merge', 'undefined', 'self']);
    if (kind === 'merge') ls.splice(b + 1, 0, `${/^\s*/.exec(lb)?.[0] ?? ''}  <<: *fz`);
    else ls[b] = lb.replace(/^(\s*[\w$.-]+):.*$/, kind === 'undefined' ? '$1: *nope' : '$1: *fz');
    return [ls.join('\n'), `anchor at line ${a + 1}, ${kind} at line ${b + 1}`];
  },
  tag(text, rng) {
    const ls = lines(text);
    const cands = ls.map((l, i) => (/^\s*[\w$.-]+: \S/.test(l) ? i : -1)).filter((i) => i >= 0);
    if (!cands.length) return null;
    const i = rng.pick(cands);
    const tag = rng.pick([
      '!!str',
      '!!int',
      '!!float',
      '!!bool',
      '!!null',
      '!!binary',
      '!!timestamp',
      '!!map',
      '!!seq',
      '!custom',
      '!',
      '!<tag:x>',
      '!!python/object:os.system',
    ]);
    ls[i] = /** @type {string} */ (ls[i]).replace(/^(\s*[\w$.-]+:) /, `$1 ${tag} `);
    return [ls.join('\n'), `tag ${tag} at line ${i + 1}`];
  },
  /** A complex key (`? [a, b]`), a null key or a key with a colon. */
  oddKeySyntax(text, rng) {
    const ls = lines(text);
    const i = contentLine(rng, ls);
    if (i < 0) return null;
    const pad = /^\s*/.exec(/** @type {string} */ (ls[i]))?.[0] ?? '';
    const s = rng.pick([
      '? [a, b]\n: 1',
      '? |\n  block key\n: 1',
      ': orphan value',
      '"quoted key": 1',
      'a: b: c',
      'a:b',
      '[a]: 1',
      '{a: 1}: 2',
      '? x',
      'key: value: more',
      '-1: x',
      '0: x',
      '1.5: x',
    ]);
    ls.splice(i, 0, ...s.split('\n').map((x) => pad + x));
    return [ls.join('\n'), `odd key ${JSON.stringify(s)} at line ${i + 1}`];
  },
  /** A long line (no newline) or many lines. */
  longLine(text, rng) {
    const n = rng.logInt(1000, 2_000_000);
    const ls = lines(text);
    const i = rng.int(0, ls.length);
    ls.splice(i, 0, rng.chance(0.5) ? `# ${'c'.repeat(n)}` : `x${i}: ${'v'.repeat(n)}`);
    return [ls.join('\n'), `line of ${n} chars at ${i + 1}`];
  },
  blankLines(text, rng) {
    const n = rng.logInt(10, 200_000);
    const ls = lines(text);
    const i = rng.int(0, ls.length);
    // Not splice(i, 0, ...lines): 200 000 arguments overflow the stack.
    const out = [...ls.slice(0, i), ...Array(n).fill(rng.pick(['', '  ', '#'])), ...ls.slice(i)];
    return [out.join('\n'), `${n} blank lines at ${i + 1}`];
  },
};

/** @type {Record<string, (bytes: Buffer, rng: Rng) => [Buffer, string] | null>} */
export const BYTE_MUTATIONS = {
  randomBytes(bytes, rng) {
    const n = rng.logInt(1, 64);
    const at = rng.int(0, bytes.length);
    const junk = Buffer.from(Array.from({ length: n }, () => rng.int(0, 255)));
    return [Buffer.concat([bytes.subarray(0, at), junk, bytes.subarray(at)]), `${n} random bytes at ${at}`];
  },
  /** Cut inside a multi-byte character, or flip one byte. */
  breakUtf8(bytes, rng) {
    const multi = [];
    for (let i = 0; i < bytes.length; i++) if (/** @type {number} */ (bytes[i]) >= 0x80) multi.push(i);
    if (multi.length && rng.chance(0.5)) {
      const i = rng.pick(multi);
      return [Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]), `drop byte ${i} of a UTF-8 sequence`];
    }
    if (!bytes.length) return null;
    const i = rng.int(0, bytes.length - 1);
    const copy = Buffer.from(bytes);
    copy[i] = /** @type {number} */ (copy[i]) ^ (1 << rng.int(0, 7));
    return [copy, `flip a bit of byte ${i}`];
  },
  encoding(bytes, rng) {
    const how = rng.pick(['utf16le', 'utf16be', 'latin1']);
    const text = bytes.toString('utf8');
    if (how === 'utf16le')
      return [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'UTF-16LE with BOM'];
    if (how === 'utf16be') {
      const le = Buffer.from(text, 'utf16le');
      for (let i = 0; i + 1 < le.length; i += 2)
        [le[i], le[i + 1]] = [/** @type {number} */ (le[i + 1]), /** @type {number} */ (le[i])];
      return [le, 'UTF-16BE without BOM'];
    }
    return [Buffer.from(text, 'latin1'), 'Latin-1'];
  },
};
