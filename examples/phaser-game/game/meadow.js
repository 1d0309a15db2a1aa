/** The free level: in the game itself (the vault's comes from the site, for owners only). */
export const MEADOW = {
  name: 'The meadow',
  stars: [
    { x: 160, y: 140 },
    { x: 400, y: 220 },
    { x: 640, y: 140 },
  ],
};
