// English, the source catalogue: every other locale has exactly these keys and placeholders.
// For translators: see ../README.md (register, glossary, placeholders).

/** The popup's pages the server renders: its start page (and its code confirmation), the unavailable page. */
export const pages = {
  title: 'Log in with itch.io',
  checking: 'Checking the game that opened this window…',
  leaving: 'Opening itch.io…',
  confirm: 'This window cannot see the game that opened it.',
  confirm_code:
    '{site} ({origin}) asks you to confirm this code. Confirm only if {site}\'s own game shows this same code right now. If another site, game, message or person gave you this code, choose "It does not": confirming would log you in to {site} for them.',
  code_label: 'code {code}',
  yes: 'The game shows {code}',
  no: 'It does not',
  close: 'Close',
  popup_unverified:
    'This window could not be tied to the game that opened it, so the login stops here for your safety. Close this window and log in again from the game (allow pop-ups if your browser asks).',
  state_mismatch: 'The page that opened this window is not allowed to log in to this site. Close this window.',
  refused: 'This login could not start. Close this window and try again.',
  network: 'The site could not be reached. Close this window and try again.',
  silent: 'The page that opened this window did not answer. Close this window and log in again from the game.',
  unavailable: 'The site cannot log you in right now. Close this window and try again in a moment.',
  cookies_blocked:
    "Your browser is blocking the cookies this login needs. Allow cookies for this site in your browser's privacy settings (cookies and site data), then close this window and log in again.",
};
