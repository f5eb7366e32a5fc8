/** Whose temp files are whose: a process id in a name, and whether that process still runs. */

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `.<name>.mcpgen-<pid>.tmp`: the temp file of a write into the file's own folder (init, earlier versions of generate). */
const TEMP = /^\.[^/]+\.mcpgen-(\d+)\.tmp$/;

/** True for the name of such a temp file, whoever's it is. */
export function isTempName(name: string): boolean {
  return TEMP.test(name);
}

/** True for a temp file of mcpgen's whose process is gone: safe to delete (a user file never has that name). */
export function isDeadTemp(name: string): boolean {
  const m = TEMP.exec(name);
  if (!m) return false;
  const pid = Number(m[1]);
  return pid !== process.pid && !alive(pid);
}
