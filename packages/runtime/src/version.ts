// Released in lockstep with mcpgen: scripts/pack-runtime.mjs checks it against package.json.
export const RUNTIME_VERSION = '0.1.0';
