// Italiano. Si dà del «tu», come nella maggior parte delle interfacce di giochi. Glossario: ../README.md.
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'Accesso con itch.io',
  finishing: 'Completamento dell’accesso con itch.io…',
  nothing_title: 'Niente da completare qui',
  nothing: 'Questo indirizzo non contiene alcuna risposta di itch.io. Puoi chiudere questa scheda.',
  stopped_title: 'L’applicazione non è più in attesa',
  stopped: 'Non attende più questo accesso: avvia di nuovo l’accesso dall’applicazione. Puoi chiudere questa scheda.',
  done_title: 'Hai effettuato l’accesso',
  done: 'Puoi chiudere questa scheda e tornare all’applicazione.',
  cancelled_title: 'Accesso annullato',
  failed_title: 'L’accesso non è stato completato',
  told: 'L’applicazione è stata avvisata. Puoi chiudere questa scheda.',
  close: 'Puoi chiudere questa scheda.',
};
