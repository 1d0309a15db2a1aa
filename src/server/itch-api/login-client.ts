/*
 * The machinery every itch.io client method runs on (one credential, its two hosts, the time
 * limit), and the four endpoints a login's verification calls. The token handler builds its
 * client here, so that a bundle of it carries these endpoints' schemas and not the full client's
 * (./client.ts, which adds the other methods on the same machinery).
 */
import type * as z from 'zod/mini';
import { DEFAULT_BASE_URL } from '../../core/authorize-url.js';
import type { DownloadKeyLookup, ItchClient, ItchClientOptions } from './client-types.js';
import { assertApiBaseUrl, assertId, assertTimeout, lookupQuery } from './client-arguments.js';
import { placeCredential } from './credential.js';
import { requestItchApi, type CallOptions, type FetchFunction } from './request.js';
import {
  credentialsInfoResponseSchema,
  downloadKeysResponseSchema,
  gameOwnershipResponseSchema,
  profileResponseSchema,
  type DownloadKey,
} from './login-schemas.js';

/**
 * Time limit of a call unless `timeoutMs` says otherwise.
 * @group itch.io API client
 */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Where itch.io serves OAuth-token calls, `credentials/info` and its current server-side API.
 * @group itch.io API client
 */
export const DEFAULT_API_BASE_URL = 'https://api.itch.io';

export type Host = 'legacy' | 'current' | 'public';

/** The methods a login's verification calls: the token's scopes, its user, the ownership checks. */
export type LoginClient = Pick<ItchClient, 'credentialsInfo' | 'profile' | 'gameOwnership' | 'gameDownloadKeys'>;

/** One credential's calls: what the methods of ./client.ts and of this file are made of. */
export interface Caller {
  call<S extends z.ZodMiniType>(
    method: string,
    host: Host,
    path: string,
    schema: S,
    callOptions: CallOptions | undefined,
    query?: Record<string, string>,
  ): Promise<z.output<S>>;
  gamePath(gameId: number, legacy: boolean, rest: string): string;
  downloadKeys(method: string, host: Host, gameId: number, lookup: DownloadKeyLookup, callOptions?: CallOptions): Promise<DownloadKey>;
  /** Where `credentials/info` is asked: the legacy API for a key in the path, else the current one. */
  credentialsHost: Host;
}

/**
 * Checks the client's options and returns its calls.
 * @throws TypeError for a bad credential, `baseUrl`, `apiBaseUrl` or `timeoutMs` (never showing the secret).
 */
export function createCaller(options: ItchClientOptions): Caller {
  const placement = placeCredential(options.credential);
  const baseUrl = assertApiBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl');
  const apiBaseUrl = assertApiBaseUrl(options.apiBaseUrl ?? DEFAULT_API_BASE_URL, 'apiBaseUrl');
  const clientTimeoutMs = assertTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const send: FetchFunction = options.fetch ?? ((input, init) => fetch(input, init));

  const call = <S extends z.ZodMiniType>(
    method: string,
    host: Host,
    path: string,
    schema: S,
    callOptions: CallOptions | undefined,
    query: Record<string, string> = {},
  ): Promise<z.output<S>> => {
    let url: URL;
    let endpoint = path;
    let authorization: string | undefined;
    if (host === 'legacy') {
      if (placement.legacyPrefix === undefined) {
        throw new TypeError(
          `${method}() is a legacy /api/1/ endpoint, which takes an "api-key", "api-key-in-path" or "jwt" credential, not an "oauth" one`,
        );
      }
      url = new URL(`${baseUrl}${placement.legacyPrefix}${path}`);
      endpoint = `${placement.legacyEndpointPrefix}${path}`;
      authorization = placement.authorization;
    } else {
      if (host === 'current') {
        if (placement.authorization === undefined) {
          throw new TypeError(
            `${method}() is an endpoint of ${apiBaseUrl}, which takes the credential as a Bearer header: use type "api-key" instead of "api-key-in-path"`,
          );
        }
        authorization = placement.authorization;
      }
      url = new URL(`${apiBaseUrl}${path}`);
    }
    url.search = new URLSearchParams(query).toString();
    return requestItchApi({
      url,
      endpoint,
      authorization,
      secret: placement.secret,
      schema,
      fetch: send,
      timeoutMs: callOptions?.timeoutMs === undefined ? clientTimeoutMs : assertTimeout(callOptions.timeoutMs, 'options.timeoutMs'),
      signal: callOptions?.signal,
    });
  };

  const gamePath = (gameId: number, legacy: boolean, rest: string): string =>
    `/${legacy ? 'game' : 'games'}/${assertId(gameId, 'gameId')}/${rest}`;
  const downloadKeys = async (method: string, host: Host, gameId: number, lookup: DownloadKeyLookup, callOptions?: CallOptions) => {
    const path = gamePath(gameId, host === 'legacy', 'download_keys');
    const query = lookupQuery(lookup, method, ['downloadKey', 'userId', 'email']);
    return (await call(method, host, path, downloadKeysResponseSchema, callOptions, query)).download_key;
  };
  return { call, gamePath, downloadKeys, credentialsHost: placement.authorization === undefined ? 'legacy' : 'current' };
}

/** The login methods on `caller`. Every method is async so that an argument error rejects its promise like any other failure. */
export function loginMethods({ call, gamePath, downloadKeys, credentialsHost }: Caller): LoginClient {
  return {
    async credentialsInfo(callOptions) {
      return call('credentialsInfo', credentialsHost, '/credentials/info', credentialsInfoResponseSchema, callOptions);
    },
    async profile(callOptions) {
      return (await call('profile', 'current', '/profile', profileResponseSchema, callOptions)).user;
    },
    async gameOwnership(gameId, callOptions) {
      return call('gameOwnership', 'current', gamePath(gameId, false, 'ownership'), gameOwnershipResponseSchema, callOptions);
    },
    async gameDownloadKeys(gameId, lookup, callOptions) {
      return downloadKeys('gameDownloadKeys', 'current', gameId, lookup, callOptions);
    },
  };
}

/** A client of the login methods alone, as `createItchClient` checks and builds them. */
export function createLoginClient(options: ItchClientOptions): LoginClient {
  return loginMethods(createCaller(options));
}
