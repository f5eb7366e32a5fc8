/**
 * How many terminal cells text takes: East Asian wide and fullwidth characters and emoji take two,
 * combining marks and joiners none, anything else one. A code frame's carets are laid out by it, so
 * they stand under `天气` or after `按城市查询` as a terminal draws them (UAX #11, approximated by
 * its wide ranges).
 */
export function displayWidth(text: string): number {
  // Most frames are ASCII: one cell a character.
  if (ASCII.test(text)) return text.length;
  let cells = 0;
  for (const ch of text) cells += cellsOf(ch.codePointAt(0)!);
  return cells;
}

const ASCII = /^[\x20-\x7e]*$/;

function cellsOf(cp: number): number {
  if (ZERO.some(([from, to]) => cp >= from && cp <= to)) return 0;
  if (WIDE.some(([from, to]) => cp >= from && cp <= to)) return 2;
  return 1;
}

const ZERO: readonly [number, number][] = [
  [0x0300, 0x036f], // combining diacritical marks
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x200b, 0x200f], // zero-width space, joiners, direction marks
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f], // variation selectors
  [0xfe20, 0xfe2f],
];

const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f], // Hangul Jamo
  [0x2e80, 0x303e], // CJK radicals, punctuation
  [0x3041, 0x33ff], // kana, CJK compatibility
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe30, 0xfe4f], // CJK compatibility forms
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f], // pictographs, emoticons
  [0x1f900, 0x1f9ff], // supplemental pictographs
  [0x20000, 0x3fffd], // CJK extensions B and on
];
