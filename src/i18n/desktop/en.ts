// English, the source catalogue: every other locale has exactly these keys and placeholders.
// For translators: see ../README.md (register, glossary, placeholders).

/** The desktop login's callback page (src/desktop), in the browser of the person who logs in. */
export const desktop = {
  title: 'itch.io login',
  finishing: 'Finishing the itch.io login…',
  nothing_title: 'Nothing to finish here',
  nothing: 'This address carries no answer from itch.io. You can close this tab.',
  stopped_title: 'The application stopped waiting',
  stopped: 'It no longer listens for this login: start the login again from the application. You can close this tab.',
  done_title: 'You are logged in',
  done: 'You can close this tab and go back to the application.',
  cancelled_title: 'Login cancelled',
  failed_title: 'The login did not complete',
  told: 'The application was told. You can close this tab.',
  close: 'You can close this tab.',
};
