// Italiano. Si dà del «tu», come nella maggior parte delle interfacce di giochi. Glossario: ../README.md.
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'Accedi con itch.io',
  cancel: 'Annulla',
  continue: 'Continua con itch.io',
  dismiss: 'Annulla',
  idle: 'Nessun accesso con itch.io in corso.',
  pending: 'Accesso con itch.io in corso…',
  success: 'Hai effettuato l’accesso con itch.io.',
  retry: 'Riprova',
  close: 'Chiudi',
  store: 'Scaricalo su itch.io',
  code: 'Accesso con itch.io: conferma nella sua finestra solo se mostra il codice {code}.',
  access_denied: 'Hai rifiutato l’accesso su itch.io.',
  state_missing: 'Questo accesso non è stato avviato su questo sito, quindi non è stato completato.',
  state_mismatch: 'Questo accesso non è stato avviato qui, oppure è già stato usato.',
  state_expired: 'L’accesso ha richiesto più di 10 minuti.',
  invalid_response: 'itch.io ha inviato una risposta illeggibile.',
  backend_rejected: 'Il server di questo sito ha rifiutato l’accesso.',
  network_error: 'Impossibile raggiungere il server di questo sito.',
  popup_blocked: 'La finestra di itch.io è stata bloccata dal browser.',
  popup_closed: 'La finestra di itch.io è stata chiusa prima della fine dell’accesso.',
  config_invalid: 'L’accesso con itch.io non è configurato correttamente su questo sito.',
  timeout: 'itch.io non ha risposto in tempo: accedi di nuovo.',
  not_owner: 'Per continuare devi possedere questo gioco su itch.io.',
  popup_unverified:
    'Non è stato possibile collegare la finestra di itch.io alla pagina che l’ha aperta, quindi l’accesso è stato interrotto per la tua sicurezza.',
  aborted: 'L’accesso è stato annullato.',
  service_unavailable: 'Il server di questo sito o itch.io non risponde in questo momento. Riprova tra un minuto.',
  cookies_blocked:
    'Il tuo browser sta bloccando i cookie necessari per questo accesso. Consenti i cookie per questo sito nelle impostazioni sulla privacy del browser (cookie e dati dei siti), poi riprova.',
  next_not_owner: 'Procuratelo su itch.io, oppure esci da lì per usare l’account che lo possiede.',
  next_backend_rejected: 'Per usare un altro account itch.io, esci prima da itch.io.',
  next_network_error: 'Riprova tra qualche minuto.',
  back: 'Torna al sito',
  state_used:
    'Questo link di accesso funziona una sola volta, nella scheda in cui è iniziato l’accesso, quindi qui non ha avuto effetto. Se hai completato l’accesso in quella scheda, sei già connesso.',
};
