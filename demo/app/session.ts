// The signed-in state, as the site's backend knows it (the browser never sees the token).
import type { SessionInfo } from '../server/backend.js';

export type { SessionInfo };

/** The current session, or undefined when nobody is signed in (204). Asked once per page. */
export const session: Promise<SessionInfo | undefined> = fetch('/api/session', { credentials: 'same-origin', cache: 'no-store' })
  .then((response) => (response.status === 200 ? (response.json() as Promise<SessionInfo>) : undefined))
  .catch(() => undefined);

/** The name to show for a user. */
export function displayName(user: SessionInfo['user']): string {
  return user.display_name || user.username;
}

/**
 * The user's itch.io avatar, or a monogram when there is none (the backend passes none on with the
 * emulator, whose avatar addresses point nowhere) or it does not load.
 */
export function avatar(user: SessionInfo['user'], size: number): HTMLElement {
  const frame = document.createElement('span');
  frame.className = 'avatar';
  frame.style.setProperty('--size', `${size}px`);
  const hue = [...user.username].reduce((sum, char) => sum + char.charCodeAt(0) * 37, 0) % 360;
  frame.style.setProperty('--hue', String(hue));
  frame.textContent = displayName(user).trim().charAt(0).toUpperCase();
  frame.setAttribute('aria-hidden', 'true');
  if (user.cover_url) {
    const image = new Image(size, size);
    image.alt = '';
    image.referrerPolicy = 'no-referrer';
    image.decoding = 'async';
    image.addEventListener('load', () => frame.replaceChildren(image), { once: true });
    image.src = user.cover_url;
  }
  return frame;
}
