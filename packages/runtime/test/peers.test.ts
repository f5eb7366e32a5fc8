/**
 * Start-up errors a server's configuration can cause: an optional peer that is not installed, and
 * static bearer tokens read from the environment.
 */
import { OAuthError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { staticBearerAuth } from '../src/http.js';
import { loadPeer, MissingPeerError, OPTIONAL_PEERS } from '../src/peers.js';

const MISSING = 'no-such-package-mcpgen-test';
// A variable, so that neither tsc nor the bundler resolves the import ahead of the call.
const importMissing = (specifier = MISSING) => import(specifier);

describe('loadPeer', () => {
  it('returns what the feature module exports', async () => {
    const module = { feature: true };
    await expect(loadPeer('jose', 'transports.http.auth.oauth', async () => module)).resolves.toBe(module);
  });

  it('turns a package that is not installed into a MissingPeerError saying what to install', async () => {
    const error = await loadPeer(MISSING, 'some.feature', importMissing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPeerError);
    expect(error).toMatchObject({
      name: 'MissingPeerError',
      packageName: MISSING,
      message: `some.feature needs the package ${MISSING}, which is not installed; run: npm install ${MISSING}`,
    });
  });

  it('names a subpath import of the missing package as missing too', async () => {
    const error = await loadPeer(MISSING, 'some.feature', () => importMissing(`${MISSING}/sub`)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MissingPeerError);
  });

  it('adds the tested range of a known optional peer to the install command', () => {
    expect(new MissingPeerError('jose', 'transports.http.auth.oauth').message).toBe(
      `transports.http.auth.oauth needs the package jose, which is not installed; run: npm install jose@'${OPTIONAL_PEERS.jose}'`,
    );
    expect(Object.keys(OPTIONAL_PEERS).sort()).toEqual([
      '@modelcontextprotocol/server-legacy',
      '@opentelemetry/api',
      '@opentelemetry/sdk-node',
      'ioredis',
      'jose',
    ]);
  });

  it('passes every other error through unchanged', async () => {
    // Another package missing (one the feature's package imports, say) is not the peer's absence.
    const other = await importMissing().catch((e: unknown) => e);
    await expect(loadPeer('jose', 'transports.http.auth.oauth', () => Promise.reject(other))).rejects.toBe(other);
    const broken = new SyntaxError('Unexpected token');
    await expect(loadPeer(MISSING, 'some.feature', () => Promise.reject(broken))).rejects.toBe(broken);
    const thrownSync = new Error('sync');
    await expect(
      loadPeer(MISSING, 'some.feature', () => {
        throw thrownSync;
      }),
    ).rejects.toBe(thrownSync);
  });
});

describe('staticBearerAuth', () => {
  const bearer = { tokensEnv: 'TEST_MCP_TOKENS', requiredScopes: ['mcp'], scopes: ['mcp', 'read'] };

  it('accepts the tokens the variable lists, with their client ids', async () => {
    const auth = staticBearerAuth(bearer, { TEST_MCP_TOKENS: ' alice:tok-a , tok-b,, ' });
    expect(auth.requiredScopes).toEqual(['mcp']);
    const before = Math.floor(Date.now() / 1000);
    const a = await auth.verifier.verifyAccessToken('tok-a');
    expect(a).toMatchObject({ token: 'tok-a', clientId: 'alice', scopes: ['mcp', 'read'] });
    // Static tokens do not expire; the SDK needs a time, an hour ahead.
    expect(a.expiresAt! - before).toBeGreaterThanOrEqual(3599);
    expect(a.expiresAt! - before).toBeLessThanOrEqual(3601);
    expect(await auth.verifier.verifyAccessToken('tok-b')).toMatchObject({ token: 'tok-b', clientId: 'client' });
  });

  it('refuses an unknown token as invalid', async () => {
    const auth = staticBearerAuth(bearer, { TEST_MCP_TOKENS: 'alice:tok-a' });
    const error = await auth.verifier.verifyAccessToken('alice').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ code: 'invalid_token', message: 'Unknown token' });
    await expect(auth.verifier.verifyAccessToken('tok-')).rejects.toBeInstanceOf(OAuthError);
  });

  it('keeps everything after the first colon as the token', async () => {
    const auth = staticBearerAuth(bearer, { TEST_MCP_TOKENS: 'ci:a:b' });
    expect(await auth.verifier.verifyAccessToken('a:b')).toMatchObject({ clientId: 'ci' });
  });

  it('is an error naming the variable when it is unset or lists no token', () => {
    const message = 'TEST_MCP_TOKENS is not set: it lists the bearer tokens HTTP clients must send';
    expect(() => staticBearerAuth(bearer, {})).toThrow(message);
    expect(() => staticBearerAuth(bearer, { TEST_MCP_TOKENS: ' , ' })).toThrow(
      'TEST_MCP_TOKENS lists no token (it is " , "): list them as clientId:token,clientId:token,…',
    );
  });
});
