// Polski. Forma bezpośrednia (2. os. l.poj.: „Zaloguj się”), jak w większości interfejsów gier. Słowniczek: ../README.md.
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'Logowanie przez itch.io',
  finishing: 'Kończenie logowania przez itch.io…',
  nothing_title: 'Nie ma tu nic do dokończenia',
  nothing: 'Ten adres nie zawiera odpowiedzi od itch.io. Możesz zamknąć tę kartę.',
  stopped_title: 'Aplikacja przestała czekać',
  stopped: 'Nie czeka już na to logowanie: rozpocznij logowanie ponownie w aplikacji. Możesz zamknąć tę kartę.',
  done_title: 'Zalogowano',
  done: 'Możesz zamknąć tę kartę i wrócić do aplikacji.',
  cancelled_title: 'Logowanie anulowane',
  failed_title: 'Logowanie nie zostało dokończone',
  told: 'Aplikacja została powiadomiona. Możesz zamknąć tę kartę.',
  close: 'Możesz zamknąć tę kartę.',
};
