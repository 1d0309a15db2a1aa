/*
 * The opener's side of a popup login while it starts: the popup, opened centred over the page on
 * the backend's start page, and the messages between the two (the start page asks this page to
 * confirm the login's state, then says when it leaves for itch.io, or why it stopped).
 */
import type { PopupProgress } from './popup-collect.js';

const POPUP_WIDTH = 600;
const POPUP_HEIGHT = 720;

/** What this page and the popup's start page know of their login (they talk by `postMessage`). */
export interface StartPageLink {
  state?: string | undefined;
  binding?: string | undefined;
  popup?: Window | null | undefined;
  progress: PopupProgress;
}

/** Answers the start page's messages about `link`'s login; gives the function that stops listening. */
export function listenToStartPage(backend: URL, link: StartPageLink): () => void {
  const { progress } = link;
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { itchOAuth?: unknown; state?: unknown; code?: unknown } | null;
    if (event.origin !== backend.origin || link.state === undefined || data?.state !== link.state) return;
    if (link.popup !== null && event.source !== link.popup) return;
    // The start page goes on to itch.io: a close from now on may be an authorization page's COOP.
    // (From the backend's own page in this popup: what it says of itch.io's page is the backend's.)
    if (data.itchOAuth == 'popup-leaving') {
      progress.leftAt = Date.now();
      progress.severs = (data as PopupProgress).severs;
    }
    // The start page stopped before itch.io because the browser refuses the binding cookie.
    if (data.itchOAuth == 'popup-failed' && data.code == 'cookies_blocked') progress.failed = 'cookies_blocked';
    if (data.itchOAuth != 'popup-start') return;
    progress.confirmedAt = Date.now();
    // (Not answered without a binding: not made yet, or the login was cancelled.)
    if (link.binding !== undefined)
      (event.source as Window).postMessage({ itchOAuth: 'popup-opener', state: link.state, binding: link.binding }, event.origin);
  };
  addEventListener('message', onMessage);
  return () => removeEventListener('message', onMessage);
}

/** Opens the login's popup, centred over this window. */
export function openPopup(url: string): Window | null {
  const left = Math.round(screenX + Math.max(0, outerWidth - POPUP_WIDTH) / 2);
  const top = Math.round(screenY + Math.max(0, outerHeight - POPUP_HEIGHT) / 2);
  return window.open(url, '_blank', `popup,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`);
}
