// Deutsch. Anrede: „du“ (wie in den meisten Spiele-Oberflächen). Glossar: ../README.md.
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: 'Mit itch.io anmelden',
  checking: 'Das Spiel, das dieses Fenster geöffnet hat, wird geprüft…',
  leaving: 'itch.io wird geöffnet…',
  confirm: 'Dieses Fenster kann das Spiel, das es geöffnet hat, nicht sehen.',
  confirm_code:
    '{site} ({origin}) bittet dich, diesen Code zu bestätigen. Bestätige nur, wenn das Spiel von {site} genau jetzt denselben Code zeigt. Hat dir eine andere Website, ein anderes Spiel, eine Nachricht oder eine Person diesen Code gegeben, wähle „Es zeigt ihn nicht“: Eine Bestätigung würde sie mit deinem Konto bei {site} anmelden.',
  code_label: 'Code {code}',
  yes: 'Das Spiel zeigt {code}',
  no: 'Es zeigt ihn nicht',
  close: 'Schließen',
  popup_unverified:
    'Dieses Fenster konnte nicht dem Spiel zugeordnet werden, das es geöffnet hat. Zu deiner Sicherheit endet die Anmeldung hier. Schließe dieses Fenster und melde dich im Spiel erneut an (erlaube Pop-ups, wenn dein Browser fragt).',
  state_mismatch: 'Die Seite, die dieses Fenster geöffnet hat, darf sich nicht bei dieser Website anmelden. Schließe dieses Fenster.',
  refused: 'Diese Anmeldung konnte nicht starten. Schließe dieses Fenster und versuche es erneut.',
  network: 'Die Website ist nicht erreichbar. Schließe dieses Fenster und versuche es erneut.',
  silent: 'Die Seite, die dieses Fenster geöffnet hat, hat nicht geantwortet. Schließe dieses Fenster und melde dich im Spiel erneut an.',
  unavailable: 'Die Website kann dich gerade nicht anmelden. Schließe dieses Fenster und versuche es gleich noch einmal.',
  cookies_blocked:
    'Dein Browser blockiert die Cookies, die diese Anmeldung braucht. Erlaube Cookies für diese Website in den Datenschutzeinstellungen deines Browsers (Cookies und Websitedaten), schließe dann dieses Fenster und melde dich erneut an.',
};
