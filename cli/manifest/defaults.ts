/**
 * The defaults schemas/manifest.v1.json declares for what the generated server is told: normalize
 * resolves the IR with them, the checks that run before it read them here too, and
 * test/manifest-schema.test.ts holds them equal to the schema's `default`s.
 */
export const HTTP_DEFAULTS = {
  host: '127.0.0.1',
  port: 3000,
  path: '/mcp',
  maxBodyBytes: 1_048_576,
  tokensEnv: 'MCP_TOKENS',
  sse: { path: '/sse', messagesPath: '/messages' },
} as const;

export const TASK_DEFAULTS = { ttlMs: 3_600_000, pollIntervalMs: 1000 } as const;

/** `apis.<name>.timeoutMs`: the runtime's DEFAULT_HTTP_TIMEOUT_MS too. */
export const API_DEFAULTS = { timeoutMs: 30_000 } as const;
