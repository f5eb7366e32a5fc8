// Writing an answer's parts together: what is ready in one turn of the event loop goes out in one
// write (http-wire.ts, session-post.ts).
import type { ServerResponse } from 'node:http';

/** Writes `chunks` corked until this turn's microtasks are done: what comes with them joins one write. */
export function writeCorked(res: ServerResponse, chunks: readonly (string | Uint8Array)[]): boolean {
  if (res.writableCorked === 0) {
    res.cork();
    process.nextTick(() => res.uncork());
  }
  let ok = true;
  for (const chunk of chunks) ok = res.write(chunk);
  return ok;
}

/**
 * Ends `res` after what is corked: from Node 22 a chunked body's last chunk is written at `end()`
 * ahead of chunks `cork()` still holds, which would then follow the end of the body.
 */
export function endUncorked(res: ServerResponse): void {
  while (res.writableCorked > 0) res.uncork();
  res.end();
}
