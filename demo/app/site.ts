// Every page: the real elements from src/, the pixel art, and the header's signed-in state.
import '../../src/define.js';
import { paintSprites } from './pixel-art.js';
import { avatar, displayName, session } from './session.js';

paintSprites();

// In-page links scroll smoothly (site.css) from the frame after the load, not the first jump to
// the address's fragment: a click on the framed game while it still moved would miss its button.
addEventListener('load', () => requestAnimationFrame(() => (document.documentElement.dataset['smoothScroll'] = '')), { once: true });

const slot = document.querySelector<HTMLElement>('[data-session]');
session.then((current) => {
  document.documentElement.dataset['signedIn'] = String(current !== undefined);
  if (slot === null || current === undefined) return;
  const chip = document.createElement('a');
  chip.className = 'session-chip';
  chip.href = '/account.html';
  const name = document.createElement('span');
  name.textContent = displayName(current.user);
  chip.append(avatar(current.user, 28), name);
  chip.setAttribute('aria-label', `Signed in as ${displayName(current.user)}: your account`);
  slot.replaceChildren(chip);
});
