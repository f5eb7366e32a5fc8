// A POST's SSE answer that holds nothing but the answer (http-wire.ts, session-post.ts).

/**
 * The one JSON-RPC message of a finished SSE answer's `text`, when that is all it holds besides
 * priming events (an id and empty data) and comments: its JSON text, else undefined. Such an
 * answer says nothing that a JSON answer does not, and a client must accept either for a POST
 * (Streamable HTTP, 2025-03-26 on). A notification or request sent before the answer keeps the
 * stream.
 */
export function soleMessage(text: string): string | undefined {
  let message: string | undefined;
  for (const event of text.split('\n\n')) {
    if (event === '') continue;
    let data = '';
    for (const line of event.split('\n')) if (line.startsWith('data:')) data += line.slice(line[5] === ' ' ? 6 : 5);
    if (data === '') continue;
    if (message !== undefined) return undefined;
    message = data;
  }
  return message;
}
