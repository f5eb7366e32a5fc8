import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';

// Shared fixtures of the conformance suite (see mcpgen.yaml).
export const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
export const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    // Aborted before the wait began (a task cancelled between two steps): no wait at all.
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The name elicitation the input_required scenarios share. */
export const NAME_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};
