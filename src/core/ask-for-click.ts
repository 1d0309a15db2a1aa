/*
 * The wait of `login()` for a person's click on the "Continue with itch.io" button, when the
 * page has no user activation left for a popup (drawn by the layer above: `showContinue`). One button at a
 * time: a second call while it is shown, or while the login its click started is under way,
 * joins that login (with the first call's options);
 * each call's own signal ends only its own wait, and the login is cancelled (the button removed,
 * or the popup it opened closed) once no call waits for it any more.
 */
import { ItchOAuthError } from './errors.js';
import { preparePopupLogin } from './popup-pair.js';
import { joinLogin, type SharedLogin } from './shared-login.js';

type Follow<T> = (cancel: AbortSignal) => Promise<T>;

/**
 * Draws the Continue button: `go` on the person's click, `dismiss` when they cancel; returns
 * what removes it (`false` when it was gone already).
 */
export type ShowContinue = (go: () => void, dismiss: () => void) => () => boolean;

/** The Continue button shown now: its login (`cancel` removes the button, or cancels the login its click started). */
let asking: SharedLogin<unknown> | undefined;

/**
 * Waits for the person's click on the Continue button (shown now, or already), whose click runs
 * `follow` as if `login()` had been called in it; rejects with `aborted` when `signal` aborts,
 * with `popup_closed` when the person cancels.
 */
export function askForClick<T>(follow: Follow<T>, show: ShowContinue, signal: AbortSignal | undefined): Promise<T> {
  return joinLogin((asking ??= showButton(follow, show)) as SharedLogin<T>, signal);
}

function showButton<T>(follow: Follow<T>, show: ShowContinue): SharedLogin<T> {
  void preparePopupLogin();
  const started = new AbortController();
  // (Set at once: a Promise's executor runs before its constructor returns.)
  let remove: () => boolean;
  const outcome = new Promise<T>((resolve, reject) => {
    remove = show(
      () => resolve(follow(started.signal)),
      () => reject(new ItchOAuthError('popup_closed', 'the person cancelled the login')),
    );
  });
  // Settled, the button is for a new login() again; until then a call joins this one.
  const ended = () => {
    if (asking === group) asking = undefined;
  };
  outcome.then(ended, ended);
  const group: SharedLogin<T> = {
    outcome,
    waiting: 0,
    cancel() {
      ended();
      remove();
      started.abort();
    },
  };
  return group;
}
