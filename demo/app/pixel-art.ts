// The site's pixel art, drawn with CSS: each sprite is one element whose box-shadow paints a pixel
// per character of its map. Colours are CSS custom properties, so the art follows the theme.
//   <i class="sprite" data-sprite="keep" style="--px: 6px"></i>

const PALETTE: Record<string, string> = {
  '#': 'var(--art-stone)',
  s: 'var(--art-stone-dark)',
  r: 'var(--art-roof)',
  R: 'var(--art-roof-dark)',
  y: 'var(--art-flame)',
  o: 'var(--art-glow)',
  d: 'var(--art-door)',
  w: 'var(--art-white)',
  k: 'var(--art-ink)',
  i: 'var(--art-iron)',
  c: 'var(--art-cloak)',
  C: 'var(--art-cloak-dark)',
  f: 'var(--art-skin)',
  g: 'var(--art-leaf)',
  G: 'var(--art-leaf-dark)',
  t: 'var(--art-trunk)',
  h: 'var(--art-heart)',
  b: 'var(--art-bat)',
  m: 'var(--art-gem)',
};

const SPRITES: Record<string, string[]> = {
  star: [
    '...y...', //
    '...y...',
    '.yyoyy.',
    'yyooowy',
    '.yyoyy.',
    '..y.y..',
    '.y...y.',
  ],
  keep: [
    '.......yy.......',
    '......yoyy......',
    '.......oy.......',
    '......#ss#......',
    '.....rrrrrr.....',
    '....rrrrrrRR....',
    '...rrrrrrrRRR...',
    '..rrrrrrrrRRRR..',
    '...sssssssssR...',
    '...#########s...',
    '...####oo###s...',
    '...####oo###s...',
    '...#########s...',
    '...#########s...',
    '..##########ss..',
    '..##oo######ss..',
    '..##oo######ss..',
    '..##########ss..',
    '..#######oo#ss..',
    '..#######oo#ss..',
    '..##########ss..',
    '.###########sss.',
    '.#####dd####sss.',
    '.####dddd###sss.',
    '.####dddd###sss.',
    '################',
  ],
  knight: ['..kkkk..', '.kwwwwk.', '.kwffwk.', '.kfkfkk.', '..ffff..', '.cccccC.', 'ccccccCy', '.ccccC.o', '.cc.cC..', '.kk.kk..'],
  heart: [
    '.hh.hh.', //
    'hwhhhhh',
    'hhhhhhh',
    '.hhhhh.',
    '..hhh..',
    '...h...',
  ],
  lantern: [
    '..ii..', //
    '.i..i.',
    'iiiiii',
    'ioyyoi',
    'iyooyi',
    'ioyyoi',
    'iiiiii',
  ],
  tree: ['...gg...', '..gggg..', '.gggggG.', 'ggggggGG', '.ggggGG.', 'gggggGGG', '.gggGGG.', '...tt...', '...tt...'],
  bat: [
    'b.......b', //
    'bb.b.b.bb',
    'bbbbobbbb',
    '.bbbbbbb.',
    '..b...b..',
  ],
  gem: [
    '.mmm.', //
    'mwmmm',
    'mmmmm',
    '.mmm.',
    '..m..',
  ],
};

/** The box-shadow that paints `rows`, one pixel of size `--px` per character. */
export function spriteShadow(rows: readonly string[]): string {
  const shadows: string[] = [];
  rows.forEach((row, y) => {
    [...row].forEach((cell, x) => {
      const colour = PALETTE[cell];
      // +1: the painting element sits one pixel up-left, since a shadow never shows under its own box.
      if (colour !== undefined) shadows.push(`calc(${x + 1} * var(--px)) calc(${y + 1} * var(--px)) ${colour}`);
    });
  });
  return shadows.join(', ');
}

/** Paints every `[data-sprite]` element below `root`. */
export function paintSprites(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-sprite]')) {
    const rows = SPRITES[element.dataset['sprite'] ?? ''];
    if (rows === undefined) continue;
    element.style.setProperty('--cols', String(Math.max(...rows.map((row) => row.length))));
    element.style.setProperty('--rows', String(rows.length));
    element.style.setProperty('--pixels', spriteShadow(rows));
  }
}
