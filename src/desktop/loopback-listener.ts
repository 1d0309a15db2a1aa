/*
 * The loopback listener of a desktop login: where it listens (from the redirect URI), binding
 * it on loopback interfaces only, why a bind failed, and closing it.
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { assertRedirectUri, OOB_REDIRECT_URI } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';

/** Where a loopback login listens, from its redirect URI. */
export interface LoopbackTarget {
  redirectUri: string;
  /** Interfaces to bind: one address, or both loopback families for `localhost`. */
  hosts: string[];
  port: number;
  /** The only `Host` header answered (DNS rebinding defence). */
  host: string;
  /** The only `Origin` accepted. */
  origin: string;
  /** Path and query of the redirect URI, as a browser requests them. */
  target: string;
  /** Path of the redirect URI, for the login cookie's `Path`. */
  cookiePath: string;
}

/** The listener's address and the checks of its requests, from a loopback redirect URI. */
export function parseLoopbackRedirectUri(value: string): LoopbackTarget {
  if (value === OOB_REDIRECT_URI) {
    throw new ItchOAuthError('config_invalid', 'redirect-uri is the out-of-band URI: use loginOutOfBand for it');
  }
  const url = new URL(assertRedirectUri(value));
  const bare = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const hosts =
    bare === 'localhost'
      ? ['127.0.0.1', '::1']
      : (isIP(bare) === 4 && bare.startsWith('127.')) || (isIP(bare) === 6 && bare === '::1')
        ? [bare]
        : undefined;
  if (url.protocol !== 'http:' || hosts === undefined) {
    throw new ItchOAuthError(
      'config_invalid',
      `redirect-uri must be a loopback http address (http://127.0.0.1:PORT/…, http://[::1]:PORT/… or http://localhost:PORT/…), got ${JSON.stringify(value)}`,
    );
  }
  return {
    redirectUri: value,
    hosts,
    port: url.port === '' ? 80 : Number(url.port),
    host: url.host,
    origin: url.origin,
    target: url.pathname + url.search,
    // A path with `;` or a control character cannot be a cookie's Path: the cookie then covers `/`.
    cookiePath: /^\/[!-:<-~]*$/.test(url.pathname) ? url.pathname : '/',
  };
}

const BIND_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'EPERM']);

/** Whether `listen` failed because the address cannot be bound (the out-of-band fallback then applies). */
export function isBindError(error: unknown): error is NodeJS.ErrnoException {
  return BIND_ERRORS.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** Why the address cannot be bound, and what to do about it. */
export function bindMessage(error: NodeJS.ErrnoException, target: LoopbackTarget): string {
  const why =
    error.code === 'EADDRINUSE'
      ? 'another program is using this port'
      : error.code === 'EADDRNOTAVAIL'
        ? 'this computer has no such loopback address'
        : 'the system or a firewall refuses it';
  const address = `${(error as { address?: string }).address ?? target.hosts[0]}:${target.port}`;
  return (
    `cannot listen on ${address} (${error.code}: ${why}) for the redirect URI ${target.redirectUri}. ` +
    'Close the program that holds the port, or register another loopback redirect URI with a free port ' +
    `for this OAuth application; with readKey, ${OOB_REDIRECT_URI} is used instead when the port is taken.`
  );
}

/** Closes the listener and its open connections (the port can be bound again at once). */
export function closeServers(servers: readonly Server[]): Promise<void> {
  return Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  ).then(() => undefined);
}

/** Listens on each of the target's loopback interfaces, or on none. */
export async function listen(
  target: LoopbackTarget,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Server[]> {
  const servers: Server[] = [];
  try {
    for (const host of target.hosts) {
      const server = createServer(handler);
      server.requestTimeout = 30_000;
      server.headersTimeout = 10_000;
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen({ port: target.port, host, exclusive: true }, () => {
            server.off('error', reject);
            resolve();
          });
        });
      } catch (error) {
        // `localhost` on a machine without IPv6: 127.0.0.1 alone is enough.
        const code = (error as NodeJS.ErrnoException).code;
        if (target.hosts.length > 1 && host === '::1' && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT')) continue;
        throw error;
      }
      servers.push(server);
    }
  } catch (error) {
    await closeServers(servers);
    throw error;
  }
  return servers;
}
