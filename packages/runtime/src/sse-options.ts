// Where the legacy HTTP+SSE endpoints are and how they behave: read at start-up, without loading
// the transport itself (./sse.ts), which loads on the first request to either path.

/** Where the legacy endpoints are unless configured (transports.http.sse of the manifest). */
export const sseDefaults = {
  path: '/sse',
  messagesPath: '/messages',
};

export interface SseOptions {
  /** Path of the event stream. Default: `sseDefaults.path`. */
  path?: string | undefined;
  /** Path clients POST their messages to. Default: `sseDefaults.messagesPath`. */
  messagesPath?: string | undefined;
  /**
   * A comment is written on a quiet stream this often, so that proxies and load balancers do not
   * close it as idle (as the SDK's own streams do). 0 for none. Default 15000.
   */
  keepAliveMs?: number | undefined;
}
