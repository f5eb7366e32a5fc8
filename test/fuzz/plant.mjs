/**
 * Planted staging folders: what a repository (or an archive, or a pull request) can put in a
 * project for the next `mcpgen generate` to find. A function of the mutant's number, as mutants
 * are. Each attack plants a symlink inside the project that leads to a folder outside it, and a
 * `.mcpgen-staging/` (at the root or in src/generated) whose journal tries to write, delete or
 * move through that symlink, onto user-owned files, onto the manifest, or with paths that leave
 * the project; with an owner file naming PID 1, a bare PID, or a made-up start time; staged files
 * and `new/` itself possibly symlinks. What none can plant is the seal of a journal mcpgen wrote
 * (journal.ts), so every one must be refused (MCPG916; MCPG911 for a staging "folder" that is not
 * one) with nothing changed inside the project or outside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeRng } from './rng.mjs';

/** @typedef {{ number: number, place: string, steps: string[] }} Attack */

/** Where a symlink to the outside folder goes (the first whose folder exists and that is free is drawn among them). */
const LINKS = ['link', 'src/link', 'src/generated/link', 'src/handlers/link'];

/** Files a journal may never touch: the user's and the manifest (those the project has). */
export const USER_OWNED = ['mcpgen.yaml', 'package.json', 'tsconfig.json', 'README.md', '.gitignore', 'src/main.ts'];
const USER_DIRS = ['src/handlers', 'test/handlers'];

/** Every `every`-th mutant by a hash of its number gets an attack (none for replays, which have no number). */
export function attackOf(/** @type {number | null} */ number, /** @type {number} */ every) {
  if (number === null || every <= 0 || (Math.imul(number ^ 0x5bd1e995, 2246822519) >>> 0) % every !== 0) return null;
  const rng = makeRng(number ^ 0x7f4a7c15);
  return { number, place: rng.chance(0.8) ? '.' : 'src/generated', steps: [] };
}

/**
 * Plants `attack` into `dir` (a generated project), with `outside` a folder beside it holding
 * someone else's files. Returns the attack with the steps it took, for the finding.
 * @param {Attack} attack @param {string} dir @param {string} outside @returns {Attack}
 */
export function plant(attack, dir, outside) {
  const rng = makeRng(attack.number ^ 0x2c1b3c6d);
  const steps = [];
  fs.mkdirSync(path.join(outside, 'keep'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'canary.txt'), "not mcpgen's\n");
  fs.writeFileSync(path.join(outside, 'keep/notes.md'), 'mine\n');
  const userFiles = listUserFiles(dir);
  const links = LINKS.filter(
    (l) =>
      fs.existsSync(path.join(dir, path.dirname(l))) && !fs.lstatSync(path.join(dir, l), { throwIfNoEntry: false }),
  );
  const link = rng.pick(links.length ? links : ['link']);
  fs.symlinkSync(outside, path.join(dir, link));
  steps.push(`symlink ${link} → outside`);
  // A project without src/generated (a seed with nothing to generate there) gets it at the root.
  const place = fs.existsSync(path.join(dir, attack.place)) ? attack.place : '.';
  const staging = path.join(dir, place, '.mcpgen-staging');

  // The staging "folder" itself: usually a folder; sometimes a symlink to outside, or a file.
  const shape = rng.weighted([
    [10, 'folder'],
    [1, 'symlink'],
    [1, 'file'],
  ]);
  if (shape === 'symlink') {
    fs.mkdirSync(path.join(outside, 'staging'), { recursive: true });
    writeJournal(path.join(outside, 'staging'), { version: 1, switches: [{ op: 'remove', path: 'mcpgen.yaml' }] });
    fs.symlinkSync(path.join(outside, 'staging'), staging);
    return { ...attack, place, steps: [...steps, `${place}/.mcpgen-staging → a folder outside holding a journal`] };
  }
  if (shape === 'file') {
    fs.writeFileSync(staging, '{"version":1,"switches":[]}\n');
    return { ...attack, place, steps: [...steps, `${place}/.mcpgen-staging is a file`] };
  }
  fs.mkdirSync(staging);

  const owner = rng.weighted([
    [3, 'none'],
    [1, 'bare 1'],
    [2, 'bare dead'],
    [1, 'json pid 1'],
    [1, 'garbage'],
  ]);
  const ownerText = {
    none: null,
    'bare 1': '1\n',
    'bare dead': '999999999\n',
    'json pid 1': '{"pid":1,"start":"1","boot":"00000000-0000-0000-0000-000000000000"}\n',
    garbage: '\u0000\u00ff{',
  }[owner];
  if (ownerText !== null) fs.writeFileSync(path.join(staging, 'owner'), ownerText);
  steps.push(`owner: ${owner}`);

  /** @type {{ op: string, path: string, replaces?: boolean, user?: boolean }[]} */
  const switches = [];
  /** @type {Record<string, string>} */
  const staged = {};
  const n = rng.int(1, 4);
  for (let i = 0; i < n; i++) {
    // Paths that leave the project outright are the rarer ones: they were refused before seals.
    const kind = rng.weighted([
      [4, 'remove outside'],
      [3, 'put outside'],
      [2, 'dir outside'],
      [3, 'remove user'],
      [2, 'replace user'],
      [1, 'put elsewhere'],
      [1, 'leave'],
      [1, 'absolute'],
    ]);
    const user = userFiles.length ? rng.pick(userFiles) : 'mcpgen.yaml';
    if (kind === 'remove outside') switches.push({ op: 'remove', path: `${link}/canary.txt` });
    else if (kind === 'put outside') {
      switches.push({ op: 'put', path: `${link}/pwned.txt`, replaces: rng.chance(0.5) });
      staged[`${link}/pwned.txt`] = 'pwned\n';
    } else if (kind === 'dir outside') {
      switches.push({ op: 'dir', path: `${link}/keep` });
      staged[`${link}/keep/notes.md`] = 'pwned\n';
    } else if (kind === 'remove user') switches.push({ op: 'remove', path: user });
    else if (kind === 'replace user') {
      switches.push({ op: 'put', path: user, replaces: true });
      staged[user] = 'pwned\n';
    } else if (kind === 'put elsewhere') {
      const p = rng.pick(['.git/hooks/pre-commit', 'src/generated/../../evil.ts', 'scripts/postinstall.js']);
      switches.push({ op: 'put', path: p, replaces: false });
      if (!p.includes('..')) staged[p] = 'pwned\n';
    } else if (kind === 'leave') switches.push({ op: 'remove', path: `../${path.basename(outside)}/canary.txt` });
    else switches.push({ op: 'remove', path: path.join(outside, 'canary.txt') });
    steps.push(`journal: ${kind}`);
  }

  const format = rng.weighted([
    [5, 'v1'],
    [3, 'v2 guessed seal'],
    [1, 'not json'],
    [1, 'journal symlink'],
  ]);
  const run = `r${attack.number}`;
  if (format === 'v1') writeJournal(staging, { version: 1, switches });
  else if (format === 'v2 guessed seal') {
    // A seal taken from a file it can see: never the run file's own, which does not exist until planted.
    const st = fs.lstatSync(path.join(dir, 'mcpgen.yaml'), { bigint: true });
    writeJournal(staging, {
      version: 2,
      run,
      at: place,
      seal: { ino: String(st.ino), ctime: String(st.ctimeNs) },
      switches,
    });
    fs.writeFileSync(path.join(staging, 'run'), `${run}\n`);
  } else if (format === 'not json') fs.writeFileSync(path.join(staging, 'journal.json'), '{"version":1,"switches":[');
  else {
    writeJournal(outside, { version: 1, switches });
    fs.symlinkSync(path.join(outside, 'journal.json'), path.join(staging, 'journal.json'));
  }
  steps.push(`journal format: ${format}`, `in ${place}`);

  // The staged side: files, or `new` itself a symlink to outside (renames out of it would move someone else's files in).
  if (rng.chance(0.2)) {
    fs.symlinkSync(outside, path.join(staging, 'new'));
    steps.push('new/ → outside');
  } else {
    for (const [rel, text] of Object.entries(staged)) {
      const abs = path.join(staging, 'new', rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, text);
    }
  }
  return { ...attack, place, steps };
}

function writeJournal(/** @type {string} */ dir, /** @type {object} */ journal) {
  fs.writeFileSync(path.join(dir, 'journal.json'), JSON.stringify(journal));
}

/** The user-owned files of a generated project (POSIX paths). */
export function listUserFiles(/** @type {string} */ dir) {
  const out = USER_OWNED.filter((f) => fs.existsSync(path.join(dir, f)));
  const walk = (/** @type {string} */ rel) => {
    let ents;
    try {
      ents = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) out.push(r);
    }
  };
  for (const d of USER_DIRS) walk(d);
  return out.sort();
}

/** Takes out what `plant` put in the project (the outside folder is the caller's). */
export function unplant(/** @type {Attack} */ attack, /** @type {string} */ dir) {
  for (const place of ['.', 'src/generated'])
    fs.rmSync(path.join(dir, place, '.mcpgen-staging'), { recursive: true, force: true });
  for (const link of LINKS) {
    const abs = path.join(dir, link);
    if (fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) fs.rmSync(abs);
  }
  return attack;
}
