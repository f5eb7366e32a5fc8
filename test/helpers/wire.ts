/**
 * Raw JSON-RPC over Streamable HTTP for the end-to-end tests that check the wire itself: a
 * message, the answer to one request in a JSON or SSE response, and the messages of an open stream.
 */

export type Message = {
  jsonrpc: '2.0';
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

/** The answer to request `id` in a response, whether JSON or an SSE stream that ends with it. */
export async function answerOf(res: Response, id: unknown): Promise<Message> {
  const text = await res.text();
  if (!res.headers.get('content-type')?.includes('text/event-stream')) return JSON.parse(text) as Message;
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim())
    .map((line) => JSON.parse(line.slice(5)) as Message);
  const found = events.find((m) => m.id === id && m.method === undefined);
  if (!found) throw new Error(`no answer with id ${String(id)} in ${text}`);
  return found;
}

/**
 * The JSON-RPC messages of an SSE response, read as they come: `next` waits (bounded) for the next
 * one, `pending` returns those read so far without waiting.
 */
export function sseMessages(res: Response): { next(waitMs?: number): Promise<Message>; pending(): Message[] } {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const queue: Message[] = [];
  let buffer = '';
  const fill = async (): Promise<void> => {
    const { done, value } = await reader.read();
    if (done) throw new Error('stream ended');
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data:'));
      buffer = buffer.slice(end + 2);
      if (data?.slice(5).trim()) queue.push(JSON.parse(data.slice(5)) as Message);
    }
  };
  let reading: Promise<void> | undefined;
  const more = () => (reading ??= fill().finally(() => (reading = undefined)));
  return {
    async next(waitMs = 10_000) {
      const deadline = Date.now() + waitMs;
      while (queue.length === 0) {
        await Promise.race([
          more(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('no message on the stream')), Math.max(1, deadline - Date.now())),
          ),
        ]);
      }
      return queue.shift()!;
    },
    pending: () => (void more().catch(() => {}), queue),
  };
}
