// Deutsch. Anrede: „du“ (wie in den meisten Spiele-Oberflächen). Glossar: ../README.md.
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'Mit itch.io anmelden',
  cancel: 'Abbrechen',
  continue: 'Weiter mit itch.io',
  dismiss: 'Abbrechen',
  idle: 'Keine itch.io-Anmeldung im Gange.',
  pending: 'Du wirst mit itch.io angemeldet…',
  success: 'Du bist mit itch.io angemeldet.',
  retry: 'Erneut versuchen',
  close: 'Schließen',
  store: 'Auf itch.io holen',
  code: 'itch.io-Anmeldung: Bestätige im itch.io-Fenster nur, wenn es den Code {code} zeigt.',
  access_denied: 'Du hast die Anmeldung auf itch.io abgelehnt.',
  state_missing: 'Diese Anmeldung wurde nicht auf dieser Website gestartet und daher nicht abgeschlossen.',
  state_mismatch: 'Diese Anmeldung wurde nicht hier gestartet oder schon verwendet.',
  state_expired: 'Die Anmeldung hat länger als 10 Minuten gedauert.',
  invalid_response: 'itch.io hat eine Antwort geschickt, die nicht gelesen werden konnte.',
  backend_rejected: 'Der Server dieser Website hat die Anmeldung abgelehnt.',
  network_error: 'Der Server dieser Website ist nicht erreichbar.',
  popup_blocked: 'Der Browser hat das itch.io-Fenster blockiert.',
  popup_closed: 'Das itch.io-Fenster wurde geschlossen, bevor die Anmeldung abgeschlossen war.',
  config_invalid: 'Die Anmeldung mit itch.io ist auf dieser Website nicht richtig eingerichtet.',
  timeout: 'itch.io hat nicht rechtzeitig geantwortet. Bitte melde dich erneut an.',
  not_owner: 'Du musst dieses Spiel auf itch.io besitzen, um fortzufahren.',
  popup_unverified:
    'Das itch.io-Fenster konnte nicht der Seite zugeordnet werden, die es geöffnet hat. Zu deiner Sicherheit wurde die Anmeldung beendet.',
  aborted: 'Die Anmeldung wurde abgebrochen.',
  service_unavailable: 'Der Server dieser Website oder itch.io antwortet gerade nicht. Versuche es in einer Minute erneut.',
  cookies_blocked:
    'Dein Browser blockiert die Cookies, die diese Anmeldung braucht. Erlaube Cookies für diese Website in den Datenschutzeinstellungen deines Browsers (Cookies und Websitedaten) und versuche es dann erneut.',
  next_not_owner: 'Hol es dir auf itch.io, oder melde dich dort ab, um das Konto zu verwenden, dem es gehört.',
  next_backend_rejected: 'Um ein anderes itch.io-Konto zu verwenden, melde dich zuerst auf itch.io ab.',
  next_network_error: 'Versuche es in ein paar Minuten erneut.',
  back: 'Zurück zur Website',
  state_used:
    'Dieser Anmeldelink funktioniert nur einmal, in dem Tab, in dem die Anmeldung begonnen hat, und hat hier deshalb nichts bewirkt. Wenn du die Anmeldung dort abgeschlossen hast, bist du bereits angemeldet.',
};
