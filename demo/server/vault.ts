// What the vault holds: the owners-only bonus of Starfall Keep. It lives on the server and is
// sent only to a player whose login showed they own the game.

/** The vault's content, as `GET /api/vault` answers an owner. */
export interface VaultContent {
  title: string;
  /** The bonus level. */
  level: { name: string; text: string };
  /** The soundtrack, track by track. */
  soundtrack: { track: number; title: string; length: string }[];
}

export const VAULT: VaultContent = {
  title: 'The vault',
  level: {
    name: 'The Sunken Observatory',
    text: 'A bonus night below the undercroft, where the first star fell. Your lantern burns blue down there.',
  },
  soundtrack: [
    { track: 1, title: 'Lantern Hymn', length: '2:48' },
    { track: 2, title: 'Starfall Over the Keep', length: '3:31' },
    { track: 3, title: 'Undercroft Bats', length: '2:05' },
    { track: 4, title: 'Dawn at the Forge', length: '4:12' },
  ],
};
