// The entry of dist/itch-oauth-bridge.iife.js: adds `ItchOAuth.bridge` to the global of
// dist/itch-oauth-button.iife.js (a game's page) or dist/itch-oauth.iife.js, loaded first. A file of its own, so that the pages
// that load the button do not pay for an engine bridge (scripts/check-size.mjs).
import { createBridge } from './bridge.js';
import type { GameSession, GameSessionOptions } from '../core/game-session.js';
import type { LoginOptions, LoginResult } from '../core/login.js';
import type { playerMessage } from '../i18n/player-message.js';

const global = (
  globalThis as {
    ItchOAuth?: {
      login?(options: LoginOptions): Promise<LoginResult>;
      gameSession?(options: GameSessionOptions): GameSession;
      playerMessage?: typeof playerMessage;
      bridge?: unknown;
    };
  }
).ItchOAuth;
if (typeof global?.login != 'function')
  throw Error('itch-oauth-bridge.iife.js: load itch-oauth-button.iife.js or itch-oauth.iife.js before it');
global.bridge = createBridge(global.login, global.gameSession, global.playerMessage);
