/*
 * The opener's side of a popup login while it starts: the popup, opened centred over the page on
 * the backend's start page, and the messages between the two (the start page asks this page to
 * confirm the login's state, then says when it leaves for itch.io, or why it stopped).
 */
import { closePopup, type PopupProgress } from './popup-collect.js';

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
    if (data.itchOAuth != 'popup-start' || link.binding === undefined) return;
    (event.source as Window).postMessage({ itchOAuth: 'popup-opener', state: link.state, binding: link.binding }, event.origin);
    progress.confirmedAt = Date.now();
  };
  addEventListener('message', onMessage);
  return () => removeEventListener('message', onMessage);
}

/**
 * Closes a cancelled login's popup once its start page has asked this page to confirm the state,
 * or after {@link waitMs}: a popup closed while its first page loads was seen to read as closed yet
 * stay open on that page. The start page's ask goes unanswered: the login goes no further.
 */
export function closeOnceStarted(backend: URL, link: StartPageLink, waitMs = 1000): void {
  const { popup, state } = link;
  link.binding = undefined;
  const close = () => {
    removeEventListener('message', onMessage);
    clearTimeout(timer);
    closePopup(popup ?? null);
  };
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { itchOAuth?: unknown; state?: unknown } | null;
    if (event.origin === backend.origin && event.source === popup && data?.itchOAuth == 'popup-start' && data.state === state) close();
  };
  // A popup still blank (its pair was being made), or whose start page has asked already, has loaded.
  if (!popup || state === undefined || link.progress.confirmedAt !== undefined) return closePopup(popup ?? null);
  addEventListener('message', onMessage);
  const timer = setTimeout(close, waitMs);
}

/** Opens the login's popup, centred over this window. */
export function openPopup(url: string): Window | null {
  const left = Math.round(screenX + Math.max(0, outerWidth - POPUP_WIDTH) / 2);
  const top = Math.round(screenY + Math.max(0, outerHeight - POPUP_HEIGHT) / 2);
  return window.open(url, '_blank', `popup,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`);
}
