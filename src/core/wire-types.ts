/*
 * The types the browser and the server both speak on the wire: the server's schemas check what
 * itch.io sends against them, and the browser reads them in the token endpoint's answer.
 */

/**
 * An itch.io profile, as `/me` and `/profile` answer it (fields itch.io adds pass through).
 * @see https://itch.io/docs/api/serverside
 * @group Schemas
 */
export interface User {
  id: number;
  username: string;
  display_name?: string;
  /** Site-relative or absolute address of the profile page. */
  url: string;
  cover_url?: string;
  gamer: boolean;
  developer: boolean;
  press_user: boolean;
  [field: string]: unknown;
}

/**
 * Whether the user owns each game, by game id: `{ 2001: true, 2002: false }`.
 * @group Token endpoint
 */
export type Owns = { readonly [gameId: number]: boolean };
