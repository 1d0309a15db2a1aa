// Deutsch. Anrede: „du“ (wie in den meisten Spiele-Oberflächen). Glossar: ../README.md.
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'itch.io-Anmeldung',
  finishing: 'Die itch.io-Anmeldung wird abgeschlossen…',
  nothing_title: 'Hier gibt es nichts abzuschließen',
  nothing: 'Diese Adresse enthält keine Antwort von itch.io. Du kannst diesen Tab schließen.',
  stopped_title: 'Die Anwendung wartet nicht mehr',
  stopped: 'Sie wartet nicht mehr auf diese Anmeldung: Starte die Anmeldung erneut in der Anwendung. Du kannst diesen Tab schließen.',
  done_title: 'Du bist angemeldet',
  done: 'Du kannst diesen Tab schließen und zur Anwendung zurückkehren.',
  cancelled_title: 'Anmeldung abgebrochen',
  failed_title: 'Die Anmeldung wurde nicht abgeschlossen',
  told: 'Die Anwendung wurde benachrichtigt. Du kannst diesen Tab schließen.',
  close: 'Du kannst diesen Tab schließen.',
};
