// Polski. Forma bezpośrednia (2. os. l.poj.: „Zaloguj się”), jak w większości interfejsów gier. Słowniczek: ../README.md.
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: 'Zaloguj się przez itch.io',
  checking: 'Sprawdzanie gry, która otworzyła to okno…',
  leaving: 'Otwieranie itch.io…',
  confirm: 'To okno nie widzi gry, która je otworzyła.',
  confirm_code:
    '{site} ({origin}) prosi o potwierdzenie tego kodu. Potwierdź tylko wtedy, gdy gra witryny {site} pokazuje teraz ten sam kod. Jeśli ten kod dała ci inna witryna, inna gra, wiadomość lub osoba, wybierz „Nie pokazuje”: potwierdzenie zalogowałoby ich do {site} na twoje konto.',
  code_label: 'kod {code}',
  yes: 'Gra pokazuje {code}',
  no: 'Nie pokazuje',
  close: 'Zamknij',
  popup_unverified:
    'Nie udało się powiązać tego okna z grą, która je otworzyła, więc dla twojego bezpieczeństwa logowanie kończy się tutaj. Zamknij to okno i zaloguj się ponownie z poziomu gry (zezwól na wyskakujące okna, jeśli przeglądarka o to zapyta).',
  state_mismatch: 'Strona, która otworzyła to okno, nie może logować się do tej witryny. Zamknij to okno.',
  refused: 'Nie udało się rozpocząć logowania. Zamknij to okno i spróbuj ponownie.',
  network: 'Nie udało się połączyć z witryną. Zamknij to okno i spróbuj ponownie.',
  silent: 'Strona, która otworzyła to okno, nie odpowiedziała. Zamknij to okno i zaloguj się ponownie z poziomu gry.',
  unavailable: 'Witryna nie może cię teraz zalogować. Zamknij to okno i spróbuj ponownie za chwilę.',
  cookies_blocked:
    'Twoja przeglądarka blokuje pliki cookie potrzebne do logowania. Zezwól na pliki cookie dla tej witryny w ustawieniach prywatności przeglądarki (pliki cookie i dane witryn), a potem zamknij to okno i zaloguj się ponownie.',
};
