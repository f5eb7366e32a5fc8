// The interface the HTTP server listens on: checked before anything starts, so a typo in --host is
// named as such, and turned into a URL a client on this machine can use.
import { isIP } from 'node:net';

const HOSTNAME =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** The addresses that mean every interface: no client connects to them. */
const ALL_INTERFACES = new Map([
  ['0.0.0.0', '127.0.0.1'],
  ['::', '::1'],
]);

/**
 * `host` as `server.listen` takes it (an IPv6 address without its brackets), or an Error naming
 * `source` (the flag or manifest key it came from) and what is wrong.
 */
export function listenHost(host: string, source: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const what = `${source} ${JSON.stringify(host)}`;
  if (bare.trim() === '') {
    throw new Error(
      `${source} is empty: give an address of this machine (127.0.0.1; 0.0.0.0 or :: for all interfaces) or a host name`,
    );
  }
  if (isIP(bare)) return bare;
  if (/^[\d.]+$/.test(bare)) {
    throw new Error(
      `${what} is not an IPv4 address: four numbers from 0 to 255 (127.0.0.1, 0.0.0.0 for all interfaces)`,
    );
  }
  if (bare.includes(':')) throw new Error(`${what} is not an IPv6 address (::1, or :: for all interfaces)`);
  if (!HOSTNAME.test(bare)) throw new Error(`${what} is neither an IP address nor a host name`);
  return bare;
}

/** Whether `host` listens on every interface (0.0.0.0, ::). */
export const allInterfaces = (host: string) => ALL_INTERFACES.has(host);

/** The host of the URL to announce: the loopback address for an every-interface listen. */
export function urlHost(host: string): string {
  const reachable = ALL_INTERFACES.get(host) ?? host;
  return reachable.includes(':') ? `[${reachable}]` : reachable;
}

/** A listen error as one line: which of --host or --port to change, and why. */
export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number, source: string): Error {
  const where = `${host}:${port}`;
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new Error(
        `${source} ${host}: no such host (${error.code}); give an address or a name this machine resolves`,
      );
    case 'EADDRNOTAVAIL':
      return new Error(
        `${source} ${host} is not an address of this machine; give one of its own (or 0.0.0.0 for all interfaces)`,
      );
    case 'EADDRINUSE':
      return new Error(
        `cannot listen on ${where}: the port is in use; stop what uses it or choose another with --port`,
      );
    case 'EACCES':
      return new Error(`cannot listen on ${where}: ports below 1024 need privileges; choose another with --port`);
    default:
      return new Error(`cannot listen on ${where}: ${error.message}`);
  }
}
