import { isKnownScope, type ItchScope } from '../core/scopes.js';

const WORDING: Record<ItchScope, (creator: string) => string> = {
  profile: () => 'See your public profile, the games you are developing, your collections and the games you have bought or claimed',
  'profile:me': () => 'See your public profile: username, display name and avatar',
  'profile:games': () => 'See the games you are developing',
  'profile:collections': () => 'See your collections',
  'profile:owned': () => 'See the games you have bought or claimed',
  'game:view:ownership': (creator) => `Check whether you own games made by ${creator}`,
  'game:view:rewards': () => 'See the rewards claimed for games you are developing',
};

/**
 * A scope in plain words for the consent page. `creator` names the application's developer, whose
 * games `game:view:ownership` is limited to.
 * @see https://itch.io/docs/api/oauth
 */
export function describeScope(scope: string, creator: string): string {
  return isKnownScope(scope) ? WORDING[scope](creator) : scope;
}
