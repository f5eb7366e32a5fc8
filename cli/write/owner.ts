/**
 * owner: which process holds a staging folder, told apart from whatever runs under its PID later.
 * A PID alone is not an identity: PIDs are reused, and PID 1 exists in every container, so a
 * generate that died as PID 1 (or whose PID went to another process) would look alive for ever.
 * The owner file records the PID with the process's start time, the boot it started in and its
 * PID namespace; a process under that PID with another start time, or another boot, is not the
 * owner. An owner in another PID namespace (another container sharing the project) cannot be
 * looked up at all: its folder counts as in use for a minute after it was written (a generate
 * takes seconds), then as left behind.
 *
 * Start time: on Linux /proc/<pid>/stat field 22 (clock ticks since boot), elsewhere `ps -o
 * lstart=` (to the second); where neither answers (Windows), the PID alone is all there is.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { alive } from './temps.js';

/** How long an owner in another PID namespace is taken to be running after it wrote its owner file. */
export const FOREIGN_OWNER_MS = 60_000;

export interface Owner {
  pid: number;
  /** When the process started, as this system tells it; null where it cannot be told. */
  start: string | null;
  /** The kernel's boot id (Linux): a start time is only comparable within one boot. */
  boot: string | null;
  /** The PID namespace (Linux): a PID means something only within its own. */
  ns: string | null;
}

/** The owner file's text for a process of this boot and PID namespace (this one, unless told otherwise). */
export function ownerText(pid = process.pid): string {
  return `${JSON.stringify({ pid, start: startOf(pid), boot: bootId(), ns: pidNamespace() } satisfies Owner)}\n`;
}

/** The owner file's text as an Owner; a bare PID (the file earlier versions wrote) has no start. Null for anything else. */
export function parseOwner(text: string): Owner | null {
  const bare = text.trim();
  if (/^\d+$/.test(bare)) return { pid: Number(bare), start: null, boot: null, ns: null };
  try {
    const o = JSON.parse(text) as Partial<Owner>;
    if (typeof o !== 'object' || o === null || !Number.isSafeInteger(o.pid)) return null;
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    return { pid: o.pid!, start: str(o.start), boot: str(o.boot), ns: str(o.ns) };
  } catch {
    return null;
  }
}

/**
 * True when the owner is another process that still runs; `writtenAt`: the owner file's mtime (ms).
 * When in doubt (a process whose start time cannot be read, e.g. another user's under a hidden
 * /proc) it counts as running: a live generate's staging folder must never be taken from it.
 */
export function ownerRunning(o: Owner, writtenAt: number): boolean {
  if (!(o.pid > 0)) return false;
  // Where boot ids can be read a running generate recorded one: another, or none, is no live owner.
  const boot = bootId();
  if (boot !== null && o.boot !== boot) return false;
  const ns = pidNamespace();
  if (o.ns !== null && ns !== null && o.ns !== ns) return Date.now() - writtenAt < FOREIGN_OWNER_MS;
  if (o.pid === process.pid || !alive(o.pid)) return false;
  // Here start times can be read, so a running generate recorded one: a record without one is an
  // earlier version's leftover (or a planted file), not a live owner.
  if (o.start === null) return startOf(process.pid) === null;
  const now = startOf(o.pid);
  return now === null || now === o.start;
}

let ownStart: string | null | undefined;
let bootCache: string | null | undefined;

/** The start time of `pid`, or null when this system does not say. */
export function startOf(pid: number): string | null {
  if (pid === process.pid && ownStart !== undefined) return ownStart;
  const start = process.platform === 'linux' ? procStart(pid) : process.platform === 'win32' ? null : psStart(pid);
  if (pid === process.pid) ownStart = start;
  return start;
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses, so fields are counted after its last `)`. */
function procStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const field = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
    return field && /^\d+$/.test(field) ? field : null;
  } catch {
    return null;
  }
}

function psStart(pid: number): string | null {
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    return out.trim().replace(/\s+/g, ' ') || null;
  } catch {
    return null;
  }
}

let nsCache: string | null | undefined;

function pidNamespace(): string | null {
  if (nsCache !== undefined) return nsCache;
  try {
    nsCache = process.platform === 'linux' ? readlinkSync('/proc/self/ns/pid') : null;
  } catch {
    nsCache = null;
  }
  return nsCache;
}

function bootId(): string | null {
  if (bootCache !== undefined) return bootCache;
  try {
    bootCache =
      process.platform === 'linux' ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null : null;
  } catch {
    bootCache = null;
  }
  return bootCache;
}
